import { ImagePlus, LoaderCircle, Star, Trash2 } from 'lucide-react'
import * as React from 'react'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Checkbox } from '~/components/ui/checkbox'
import { cn } from '~/components/ui/cn'
import { ErrorList } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { showToast } from '~/components/ui/toaster'
import { useHydrated } from '~/components/ui/use-hydrated'
import { pluralize } from '~/lib/format'
import { IMAGE_SIZES, imageVariant } from '~/lib/images'
import { applyImageFlow, IMAGE_HINT, MAX_IMAGES, TOO_MANY_IMAGES_MESSAGE } from '~/lib/listing-schema'

export const ACCEPTED_IMAGE_TYPES = 'image/jpeg,image/png,image/webp'
const UPLOAD_URL = '/api/listings/upload-images'

export type ImageUploaderProps = {
  defaultScreenshots: readonly string[]
  defaultThumbnail: string | null
  errors?: string[]
  errorId?: string
}

/** Spec §4: removing the main image promotes the first remaining one, or clears it. */
export function removeImage(images: readonly string[], main: string | null, url: string) {
  const rest = images.filter((u) => u !== url)
  return { images: rest, main: main === url ? (rest[0] ?? null) : main }
}

type Rejected = { name: string; error: string }

class UploadError extends Error {
  constructor(
    message: string,
    readonly rejected: Rejected[] = [],
  ) {
    super(message)
  }
}

/** The stored URLs, and the files the server refused (the valid ones of a batch are kept). */
async function uploadFiles(files: File[]): Promise<{ images: string[]; rejected: Rejected[] }> {
  const body = new FormData()
  for (const file of files) body.append('images', file)
  let response: Response
  try {
    response = await fetch(UPLOAD_URL, { method: 'POST', body, credentials: 'same-origin' })
  } catch {
    throw new UploadError('Failed to upload images')
  }
  const json = (await response.json().catch(() => null)) as { images?: string[]; rejected?: Rejected[]; error?: string } | null
  if (!response.ok || !json?.images) throw new UploadError(json?.error || 'Failed to upload images', json?.rejected)
  return { images: json.images, rejected: json.rejected ?? [] }
}

/**
 * Listing images. With JavaScript: drag-and-drop or click to browse, uploads
 * go to /api/listings/upload-images at once and the form keeps their URLs in
 * hidden inputs. Without it: a plain multipart file input (`images`) handled
 * by the form's own action, with "Main image" radios and "Remove" checkboxes.
 */
export function ImageUploader({ defaultScreenshots, defaultThumbnail, errors, errorId }: ImageUploaderProps) {
  const hydrated = useHydrated()
  const initial = applyImageFlow(defaultScreenshots, defaultThumbnail)
  const [images, setImages] = React.useState<string[]>(initial.screenshots)
  const [main, setMain] = React.useState<string | null>(initial.thumbnailUrl)
  const [uploading, setUploading] = React.useState(false)
  const [dragging, setDragging] = React.useState(false)
  // Refused files of the last batch, named with the reason; they stay until the next upload.
  const [refused, setRefused] = React.useState<Rejected[]>([])
  const fileInput = React.useRef<HTMLInputElement>(null)
  const inputId = React.useId()
  const hintId = `${inputId}-hint`

  async function addFiles(list: FileList | File[] | null) {
    const files = Array.from(list ?? [])
    if (files.length === 0 || uploading) return
    if (images.length + files.length > MAX_IMAGES) {
      showToast({ type: 'error', title: 'Too many images', description: TOO_MANY_IMAGES_MESSAGE })
      return
    }
    setUploading(true)
    setRefused([])
    try {
      const { images: urls, rejected } = await uploadFiles(files)
      setImages((current) => [...current, ...urls])
      setMain((current) => current ?? urls[0] ?? null)
      setRefused(rejected)
      showToast({ type: 'success', title: 'Images uploaded', description: `${pluralize(urls.length, 'image')} uploaded successfully` })
    } catch (error) {
      if (error instanceof UploadError) setRefused(error.rejected)
      showToast({ type: 'error', title: 'Upload failed', description: error instanceof Error ? error.message : 'Failed to upload images' })
    } finally {
      setUploading(false)
      if (fileInput.current) fileInput.current.value = ''
    }
  }

  function remove(url: string) {
    const next = removeImage(images, main, url)
    setImages(next.images)
    setMain(next.main)
    showToast({ type: 'success', title: 'Image removed', description: 'Image removed from listing' })
  }

  function makeMain(url: string) {
    setMain(url)
    showToast({ type: 'success', title: 'Main image updated', description: 'This image will be used as the listing thumbnail' })
  }

  const full = images.length >= MAX_IMAGES
  const describedBy = [hintId, errors?.length ? errorId : null].filter(Boolean).join(' ')

  return (
    <div className="grid gap-4">
      {hydrated ? (
        <>
          {images.map((url) => (
            <input key={url} type="hidden" name="screenshots" value={url} />
          ))}
          <input type="hidden" name="thumbnailUrl" value={main ?? ''} />
          <div
            onDragOver={(event) => {
              event.preventDefault()
              if (!full) setDragging(true)
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={(event) => {
              event.preventDefault()
              setDragging(false)
              void addFiles(event.dataTransfer.files)
            }}
            className={cn(
              'rounded-lg border-2 border-dashed border-input transition-colors',
              dragging && 'border-primary bg-accent',
              full && 'opacity-60',
            )}
          >
            <button
              type="button"
              onClick={() => fileInput.current?.click()}
              disabled={uploading || full}
              aria-describedby={describedBy}
              className="flex w-full flex-col items-center gap-2 rounded-lg px-6 py-8 text-center disabled:cursor-not-allowed"
            >
              {uploading ? (
                <LoaderCircle aria-hidden="true" className="size-8 animate-spin text-muted-foreground" />
              ) : (
                <ImagePlus aria-hidden="true" className="size-8 text-muted-foreground" />
              )}
              <span className="text-sm font-medium">
                {uploading ? 'Uploading…' : full ? 'Maximum number of images reached' : 'Drag and drop images here, or click to browse'}
              </span>
            </button>
            <input
              ref={fileInput}
              id={inputId}
              type="file"
              accept={ACCEPTED_IMAGE_TYPES}
              multiple
              className="sr-only"
              tabIndex={-1}
              aria-label="Upload images"
              onChange={(event) => void addFiles(event.target.files)}
            />
          </div>
        </>
      ) : (
        <div className="grid gap-2">
          <label htmlFor={inputId} className="text-sm font-medium">
            Add images
          </label>
          <Input id={inputId} type="file" name="images" accept={ACCEPTED_IMAGE_TYPES} multiple aria-describedby={describedBy} />
        </div>
      )}

      <p id={hintId} className="text-sm text-muted-foreground">
        {IMAGE_HINT} · {images.length} of {MAX_IMAGES} images
      </p>
      <ErrorList id={errorId} errors={errors} />
      {refused.length > 0 ? (
        <div role="alert" className="rounded-md border border-destructive/50 px-3 py-2 text-sm text-destructive">
          <p className="font-medium">{refused.length === 1 ? '1 file was not uploaded:' : `${refused.length} files were not uploaded:`}</p>
          <ul className="mt-1 list-disc ps-5">
            {refused.map((file, index) => (
              <li key={`${index}-${file.name}`}>{file.error}</li>
            ))}
          </ul>
        </div>
      ) : null}

      {images.length > 0 ? (
        <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3" aria-label="Listing images">
          {images.map((url, index) => {
            const isMain = url === main
            return (
              <li key={url} className="overflow-hidden rounded-lg border bg-card">
                <div className="relative">
                  <img
                    src={imageVariant(url, 'card')}
                    alt={`Listing image ${index + 1}${isMain ? ' (main)' : ''}`}
                    width={IMAGE_SIZES.card.width}
                    height={IMAGE_SIZES.card.height}
                    className="aspect-[16/10] h-auto w-full object-cover"
                  />
                  {isMain ? (
                    <Badge className="absolute start-2 top-2">
                      <Star aria-hidden="true" />
                      Main
                    </Badge>
                  ) : null}
                </div>
                {hydrated ? (
                  <div className="flex items-center justify-between gap-2 p-2">
                    {isMain ? (
                      <span className="px-2 text-xs text-muted-foreground">Thumbnail</span>
                    ) : (
                      <Button
                        type="button"
                        size="sm"
                        variant="outline"
                        onClick={() => makeMain(url)}
                        aria-label={`Set image ${index + 1} as Main`}
                      >
                        Set as Main
                      </Button>
                    )}
                    <Button type="button" size="icon" variant="ghost" onClick={() => remove(url)} aria-label={`Remove image ${index + 1}`}>
                      <Trash2 aria-hidden="true" />
                    </Button>
                  </div>
                ) : (
                  <div className="grid gap-2 p-2 text-sm">
                    <input type="hidden" name="screenshots" value={url} />
                    <label className="flex items-center gap-2">
                      <input type="radio" name="thumbnailUrl" value={url} defaultChecked={isMain} className="size-4 accent-primary" />
                      Main image
                    </label>
                    <label className="flex items-center gap-2">
                      <Checkbox name="removeImages" value={url} />
                      Remove
                    </label>
                  </div>
                )}
              </li>
            )
          })}
        </ul>
      ) : null}
    </div>
  )
}
