import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form, Link } from 'react-router'
import { Avatar, AvatarFallback, AvatarImage } from '~/components/ui/avatar'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Field, FormErrors } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { Label } from '~/components/ui/label'
import { Textarea } from '~/components/ui/textarea'
import { imageVariant } from '~/lib/images'
import { IMAGE_HINT } from '~/lib/listing-schema'
import { BIO_MAX, DISPLAY_NAME_MAX, SellerProfileSchema } from '~/lib/seller-profile-schema'

export const PUBLIC_PROFILE_INTENT = 'public-profile'

export interface PublicProfileValues {
  username: string
  displayName: string
  bio: string
  avatarUrl: string | null
}

const constraint = getZodConstraint(SellerProfileSchema)

/**
 * /profile's "Public profile" section (issue 18): what /sellers/{username}
 * shows. The text fields post to /profile (intent public-profile); the avatar
 * has its own multipart form posting to /profile/avatar (an image needs a
 * larger body limit than the profile's other forms).
 */
export function PublicProfileSection({ profile, lastResult }: { profile: PublicProfileValues; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: 'public-profile',
    lastResult,
    constraint,
    defaultValue: { username: profile.username, displayName: profile.displayName, bio: profile.bio },
    // Not on blur: an error appearing or going away under the pointer would move the button mid-click.
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SellerProfileSchema }),
  })
  return (
    <Card id="public-profile" className="scroll-mt-20">
      <CardHeader>
        <CardTitle asChild>
          <h2>Public profile</h2>
        </CardTitle>
        <CardDescription>
          Shown on your seller page,{' '}
          <Link to={`/sellers/${profile.username}`} className="font-medium text-foreground underline underline-offset-4">
            /sellers/{profile.username}
          </Link>
          , and next to your listings and reviews.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <Form method="post" action="/profile/avatar" encType="multipart/form-data" className="flex flex-col gap-4 sm:flex-row sm:items-end">
          <Avatar className="size-16">
            {profile.avatarUrl ? <AvatarImage src={imageVariant(profile.avatarUrl, 'card')} alt="" className="object-cover" /> : null}
            <AvatarFallback className="text-xl">{profile.displayName.slice(0, 1).toUpperCase()}</AvatarFallback>
          </Avatar>
          <div className="grid flex-1 gap-1.5">
            <Label htmlFor="avatar-file">Avatar</Label>
            <Input id="avatar-file" name="avatar" type="file" accept="image/jpeg,image/png,image/webp" aria-describedby="avatar-hint" />
            <p id="avatar-hint" className="text-xs text-muted-foreground">
              {IMAGE_HINT}
            </p>
          </div>
          <div className="flex gap-2">
            <Button type="submit" name="intent" value="upload" variant="secondary">
              Upload avatar
            </Button>
            {profile.avatarUrl ? (
              <Button type="submit" name="intent" value="remove" variant="ghost">
                Remove
              </Button>
            ) : null}
          </div>
        </Form>

        <Form method="post" {...getFormProps(form)} className="grid gap-4">
          <input type="hidden" name="intent" value={PUBLIC_PROFILE_INTENT} />
          <FormErrors meta={form} />
          <Field meta={fields.displayName} label="Display name" description={`Up to ${DISPLAY_NAME_MAX} characters.`}>
            {(props) => <Input {...props} autoComplete="name" />}
          </Field>
          <Field
            meta={fields.username}
            label="Username"
            description='2–39 lower-case letters, digits, "-" or "_". Changing it changes your seller page’s address.'
          >
            {(props) => <Input {...props} autoComplete="username" autoCapitalize="none" spellCheck={false} />}
          </Field>
          <Field meta={fields.bio} control="textarea" label="Bio" description={`Up to ${BIO_MAX.toLocaleString('en-US')} characters.`}>
            {(props) => <Textarea {...props} rows={4} />}
          </Field>
          <div>
            <Button type="submit">Save profile</Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  )
}
