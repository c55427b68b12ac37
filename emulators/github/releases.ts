/**
 * Releases on the emulated GitHub (issue 30), as GitHub models them:
 * - a release is a tag (made at `target_commitish` — a branch or a SHA, the default branch when
 *   omitted — unless a tag of that name exists) with a name and notes; one release per tag;
 * - a draft is seen only by those with push access (contents: write for an App) and has no
 *   `published_at`; `GET …/releases/latest` is the newest published release that is neither a draft
 *   nor a prerelease (404 when there is none);
 * - the list is newest first.
 * Webhooks: `release` published then released for a published release (a prerelease: published only;
 * a draft: none), deleted for a deleted one — what the app reads (GitHub also sends created, and
 * prereleased for a prerelease). An App receives them with contents: read when it subscribes to `release`.
 */
import type { AccountRecord, ReleaseRecord, RepoRecord } from './store.ts'
import { GithubError, isoSeconds, validationFailed, type World } from './world.ts'

interface ReleaseInput {
  tagName: string
  targetCommitish?: string
  name?: string | null
  body?: string | null
  draft?: boolean
  prerelease?: boolean
}

/** GitHub's limit on a release's notes (125,000 characters). */
const RELEASE_BODY_MAX = 125_000

export class Releases {
  constructor(
    private readonly world: World,
    private readonly now: () => number,
  ) {}

  private get state() {
    return this.world.store.state
  }

  /** The repository's releases, newest first; drafts only when `withDrafts` (push access). */
  list(repo: RepoRecord, withDrafts: boolean): ReleaseRecord[] {
    return this.state.releases
      .filter((release) => release.repoId === repo.id && (withDrafts || !release.draft))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id)
  }

  /** GitHub's "latest release": the newest published full release (not a draft, not a prerelease). */
  latest(repo: RepoRecord): ReleaseRecord | undefined {
    return this.list(repo, false).find((release) => !release.prerelease)
  }

  byId(repo: RepoRecord, id: number): ReleaseRecord | undefined {
    return this.state.releases.find((release) => release.repoId === repo.id && release.id === id)
  }

  create(repo: RepoRecord, author: AccountRecord, input: ReleaseInput): ReleaseRecord {
    const tagName = input.tagName.trim()
    if (!tagName) throw new GithubError(422, 'Invalid request.\n\n"tag_name" wasn\'t supplied.')
    if (/\s|\.\.|[~^:?*[\\]/.test(tagName) || tagName.startsWith('/') || tagName.endsWith('/') || tagName.endsWith('.lock'))
      throw validationFailed([{ resource: 'Release', code: 'custom', field: 'tag_name', message: 'tag_name is not a valid tag' }])
    if (this.state.releases.some((release) => release.repoId === repo.id && release.tagName === tagName))
      throw validationFailed([{ resource: 'Release', code: 'already_exists', field: 'tag_name' }])
    if ((input.body ?? '').length > RELEASE_BODY_MAX)
      throw validationFailed([
        { resource: 'Release', code: 'custom', field: 'body', message: 'body is too long (maximum is 125000 characters)' },
      ])
    const targetCommitish = input.targetCommitish?.trim() || repo.defaultBranch
    // An existing tag (a deleted release keeps its tag, as on GitHub) keeps its commit; a new one is made at the target.
    repo.tags ??= {}
    const sha = repo.tags[tagName] ?? this.world.resolveRef(repo, targetCommitish)?.sha
    if (!sha) throw validationFailed([{ resource: 'Release', code: 'invalid', field: 'target_commitish' }])
    repo.tags[tagName] = sha
    const at = isoSeconds(this.now())
    const draft = input.draft === true
    const release: ReleaseRecord = {
      id: this.world.store.nextId('release'),
      repoId: repo.id,
      tagName,
      targetCommitish,
      sha,
      name: input.name?.trim() ? input.name.trim() : null,
      body: input.body ? input.body : null,
      draft,
      prerelease: input.prerelease === true,
      authorId: author.id,
      createdAt: at,
      publishedAt: draft ? null : at,
      updatedAt: at,
    }
    this.state.releases.push(release)
    const senderId = author.id
    this.world.record(
      draft
        ? []
        : [
            { type: 'release', action: 'published', release: { ...release }, senderId },
            ...(release.prerelease ? [] : [{ type: 'release', action: 'released', release: { ...release }, senderId } as const]),
          ],
    )
    return release
  }

  delete(release: ReleaseRecord, sender: AccountRecord): void {
    this.state.releases.splice(this.state.releases.indexOf(release), 1)
    this.world.record([{ type: 'release', action: 'deleted', release: { ...release }, senderId: sender.id }])
  }
}
