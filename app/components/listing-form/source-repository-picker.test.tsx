import { renderToString } from 'react-dom/server'
import { MemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'
import type { SourceRepositoryData } from '~/lib/source-repository'
import { groupRepositories, SourceRepositoryHelp, SourceRepositorySelect } from './source-repository-picker'

const data = (over: Partial<SourceRepositoryData> = {}): SourceRepositoryData => ({
  enabled: true,
  connected: true,
  unavailable: false,
  current: null,
  repositories: [
    { id: 3, fullName: 'paula/side-project', ownerType: 'User', connectable: false, reason: 'personal' },
    { id: 2, fullName: 'acme/zeta', ownerType: 'Organization', connectable: true, reason: null },
    { id: 1, fullName: 'acme/alpha', ownerType: 'Organization', connectable: true, reason: null },
  ],
  ...over,
})

const props = { id: 'repo', name: 'githubRepoId', defaultValue: '' } as never

describe('Source repository picker (issue 16)', () => {
  it('groups by owner, organizations first, repositories by name', () => {
    expect(groupRepositories(data().repositories).map((g) => [g.owner, g.repositories.map((r) => r.fullName)])).toEqual([
      ['acme', ['acme/alpha', 'acme/zeta']],
      ['paula', ['paula/side-project']],
    ])
  })

  it('is a native select: none first, organization repositories choosable, personal ones disabled with the reason', () => {
    const html = renderToString(<SourceRepositorySelect props={props} data={data()} />)
    expect(html).toMatch(/^<div[^>]*><select[^>]*name="githubRepoId"/)
    expect(html).toContain('<option value="" selected="">None: I deliver it myself (not verified)</option>')
    expect(html).toContain('<option value="1">acme/alpha</option>')
    expect(html).toContain(
      '<option value="3" disabled="">paula/side-project: personal repository, move it to an organization to sell it</option>',
    )
  })

  it("keeps the listing's repository selectable when GitHub did not list it", () => {
    const html = renderToString(
      <SourceRepositorySelect
        props={props}
        data={data({ repositories: [], current: { id: 9, fullName: 'acme/gone', accessLost: true } })}
      />,
    )
    expect(html).toContain('<option value="9">acme/gone: access lost, reconnect GitHub</option>')
  })

  it('explains the organization rule with GitHub’s transfer guide, and where to connect', () => {
    const help = renderToString(
      <MemoryRouter>
        <SourceRepositoryHelp data={data({ connected: false, repositories: [] })} />
      </MemoryRouter>,
    )
    expect(help).toContain('href="/profile#github-card-title"')
    expect(help).toContain('Only repositories owned by an organization can be sold')
    expect(help).toContain('href="https://docs.github.com/en/repositories/creating-and-managing-repositories/transferring-a-repository"')
  })
})
