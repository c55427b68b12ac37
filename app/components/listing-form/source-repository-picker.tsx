import { ExternalLink } from 'lucide-react'
import type * as React from 'react'
import { Link } from 'react-router'
import type { SelectControlProps } from '~/components/ui/field'
import { NativeSelect } from '~/components/ui/native-select'
import { ORGANIZATION_ONLY_REASON, PERSONAL_REPOSITORY_NOTE, TRANSFER_REPOSITORY_DOCS_URL } from '~/lib/github'
import type { SourceRepositoryData, SourceRepositoryOption } from '~/lib/source-repository'

const ownerOf = (fullName: string) => fullName.split('/')[0] ?? fullName

/** Repositories grouped by owner, organizations first; owners and repositories by name. */
export function groupRepositories(repositories: readonly SourceRepositoryOption[]) {
  const groups = new Map<
    string,
    { owner: string; ownerType: SourceRepositoryOption['ownerType']; repositories: SourceRepositoryOption[] }
  >()
  for (const repository of repositories) {
    const owner = ownerOf(repository.fullName)
    const key = owner.toLowerCase()
    const group = groups.get(key) ?? { owner, ownerType: repository.ownerType, repositories: [] }
    group.repositories.push(repository)
    groups.set(key, group)
  }
  const byName = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' })
  return [...groups.values()]
    .map((g) => ({ ...g, repositories: [...g.repositories].sort((a, b) => byName(a.fullName, b.fullName)) }))
    .sort((a, b) => (a.ownerType === b.ownerType ? byName(a.owner, b.owner) : a.ownerType === 'Organization' ? -1 : 1))
}

/**
 * The listing form's "Source repository" (issue 16): a native select (works
 * without JavaScript) of the repositories the seller's installations grant.
 * Personal repositories are listed but cannot be chosen, with the reason.
 */
export function SourceRepositorySelect({
  props,
  data,
  onChange,
}: {
  props: SelectControlProps
  data: SourceRepositoryData
  onChange?: (event: React.ChangeEvent<HTMLSelectElement>) => void
}) {
  const listed = data.current && data.repositories.some((r) => r.id === data.current?.id)
  return (
    <NativeSelect {...props} onChange={onChange}>
      <option value="">None: I deliver it myself (not verified)</option>
      {data.current && !listed ? (
        <option value={String(data.current.id)}>
          {`${data.current.fullName}${data.current.accessLost ? ': access lost, reconnect GitHub' : ''}`}
        </option>
      ) : null}
      {groupRepositories(data.repositories).map((group) => (
        <optgroup
          key={group.owner}
          label={group.ownerType === 'Organization' ? `${group.owner} (organization)` : `${group.owner} (personal account)`}
        >
          {group.repositories.map((repository) =>
            repository.connectable ? (
              <option key={repository.id} value={String(repository.id)}>
                {repository.fullName}
              </option>
            ) : (
              <option key={repository.id} value={String(repository.id)} disabled>
                {`${repository.fullName}: ${repository.ownerType === 'User' ? PERSONAL_REPOSITORY_NOTE : (repository.reason ?? 'cannot be connected')}`}
              </option>
            ),
          )}
        </optgroup>
      ))}
    </NativeSelect>
  )
}

const LINK = 'font-medium text-primary underline underline-offset-4'

/** The help under the picker: what connecting does, the organization rule, and where to connect. */
export function SourceRepositoryHelp({ data }: { data: SourceRepositoryData }) {
  const hasPersonal = data.repositories.some((r) => r.ownerType === 'User')
  return (
    <span className="grid gap-1">
      <span>
        Buyers are invited to this repository with read access as soon as they pay, and the commit at the head of its default branch is
        recorded each time you save. Without a repository you deliver a link yourself, and buyers see that the delivery is not verified.
      </span>
      {data.unavailable ? <span>GitHub could not be reached just now, so the list may be incomplete.</span> : null}
      {data.connected ? null : (
        <span>
          No GitHub organization is connected yet:{' '}
          <Link to="/profile#github-card-title" className={LINK}>
            connect GitHub on your profile
          </Link>
          .
        </span>
      )}
      {hasPersonal || !data.connected ? (
        <span>
          {ORGANIZATION_ONLY_REASON}{' '}
          <a
            href={TRANSFER_REPOSITORY_DOCS_URL}
            target="_blank"
            rel="noopener noreferrer"
            className={`inline-flex items-center gap-1 ${LINK}`}
          >
            How to transfer a repository to an organization
            <ExternalLink aria-hidden="true" className="size-3.5" />
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </span>
      ) : null}
    </span>
  )
}
