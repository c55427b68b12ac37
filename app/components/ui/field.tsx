import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from '@conform-to/react'
import { CircleAlert } from 'lucide-react'
import * as React from 'react'
import { cn } from './cn'
import { ErrorList } from './error-list'
import { Label } from './label'

type AnyFieldMetadata = FieldMetadata<any, any, string[]>

export type InputType = Exclude<Parameters<typeof getInputProps>[1]['type'], 'checkbox' | 'radio' | 'hidden'>

// Conform's `key` must not be spread (React warns) and is applied by <Field>
// itself; `form` is dropped because the control already sits inside its
// <form>, and a `form="…"` pointing at a form without that id would silently
// exclude the value from a no-JavaScript submission.
type Managed = 'key' | 'form'

export type InputControlProps = Omit<ReturnType<typeof getInputProps<unknown, { type: InputType }>>, Managed>
export type CheckboxControlProps = Omit<ReturnType<typeof getInputProps<unknown, { type: 'checkbox'; value?: string }>>, Managed>
export type TextareaControlProps = Omit<ReturnType<typeof getTextareaProps>, Managed>
export type SelectControlProps = Omit<ReturnType<typeof getSelectProps>, Managed>

type FieldBaseProps = {
  /** `fields.x` from Conform's `useForm`. */
  meta: AnyFieldMetadata
  label: React.ReactNode
  /** Help text, linked to the control with `aria-describedby`. */
  description?: React.ReactNode
  className?: string
  labelClassName?: string
}

export type FieldProps = FieldBaseProps &
  (
    | {
        control?: 'input'
        /** Input type; defaults to `text`. */
        type?: InputType
        children: (props: InputControlProps) => React.ReactNode
      }
    | {
        control: 'textarea'
        children: (props: TextareaControlProps) => React.ReactNode
      }
    | {
        control: 'select'
        children: (props: SelectControlProps) => React.ReactNode
      }
    | {
        /** A native checkbox or `<Switch>`: submits `value` (default `on`) when checked, nothing otherwise. */
        control: 'checkbox'
        value?: string
        children: (props: CheckboxControlProps) => React.ReactNode
      }
  )

function stripManaged<T extends object>(props: T): Omit<T, Managed> {
  const rest: Record<string, unknown> = { ...(props as Record<string, unknown>) }
  delete rest.key
  delete rest.form
  return rest as Omit<T, Managed>
}

/**
 * Wires one Conform field to its label, description and errors.
 *
 * ```tsx
 * <Field meta={fields.title} label="Title" description="Shown on cards">
 *   {(props) => <Input {...props} />}
 * </Field>
 * <Field meta={fields.body} label="Body" control="textarea">
 *   {(props) => <Textarea {...props} />}
 * </Field>
 * <Field meta={fields.featured} label="Featured" control="checkbox">
 *   {(props) => <Switch {...props} />}
 * </Field>
 * ```
 */
export function Field(props: FieldProps) {
  const { meta, label, description, className, labelClassName } = props
  const aria = { ariaDescribedBy: description ? meta.descriptionId : undefined }

  let control: React.ReactNode
  switch (props.control) {
    case 'textarea':
      control = props.children(stripManaged(getTextareaProps(meta, aria)))
      break
    case 'select':
      control = props.children(stripManaged(getSelectProps(meta, aria)))
      break
    case 'checkbox':
      control = props.children(stripManaged(getInputProps(meta, { ...aria, type: 'checkbox', value: props.value ?? 'on' })))
      break
    default:
      control = props.children(stripManaged(getInputProps(meta, { ...aria, type: props.type ?? 'text' })))
  }
  // Conform bumps `key` to reset uncontrolled controls (e.g. on form reset).
  const keyedControl = <React.Fragment key={meta.key}>{control}</React.Fragment>

  const descriptionNode = description ? (
    <p id={meta.descriptionId} data-slot="field-description" className="text-sm text-muted-foreground">
      {description}
    </p>
  ) : null
  const errorNode = <ErrorList id={meta.errorId} errors={meta.errors} />

  if (props.control === 'checkbox') {
    return (
      <div data-slot="field" className={cn('grid gap-2', className)}>
        <div className="flex items-start gap-3">
          <span className="flex h-5 items-center">{keyedControl}</span>
          <div className="grid gap-1">
            <Label htmlFor={meta.id} className={cn('min-h-5 leading-5', labelClassName)}>
              {label}
            </Label>
            {descriptionNode}
          </div>
        </div>
        {errorNode}
      </div>
    )
  }

  // content-start: side by side in a form grid, fields of unequal height keep their labels
  // and controls on one line (the rows of a stretched field would spread apart instead).
  return (
    <div data-slot="field" className={cn('grid content-start gap-2', className)}>
      <Label htmlFor={meta.id} className={labelClassName}>
        {label}
      </Label>
      {keyedControl}
      {descriptionNode}
      {errorNode}
    </div>
  )
}

export { ErrorList, type ErrorListProps } from './error-list'

export type FormErrorsProps = {
  /** The form from `useForm` (uses its `errorId` and `errors`), or pass `id`/`errors` directly. */
  meta?: { errorId: string; errors?: ReadonlyArray<string> | null }
  id?: string
  errors?: ReadonlyArray<string | null | undefined> | null
  className?: string
}

/** Form-level errors (e.g. "Invalid e-mail or password"), shown as a destructive alert. */
export function FormErrors({ meta, id, errors, className }: FormErrorsProps) {
  const messages = (errors ?? meta?.errors)?.filter((message): message is string => Boolean(message)) ?? []
  if (messages.length === 0) return null
  return (
    <div
      id={id ?? meta?.errorId}
      role="alert"
      data-slot="form-errors"
      className={cn(
        'flex items-start gap-3 rounded-lg border border-destructive/50 bg-destructive/5 px-4 py-3 text-sm text-destructive',
        className,
      )}
    >
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      {messages.length === 1 ? (
        <p className="font-medium">{messages[0]}</p>
      ) : (
        <ul className="grid list-disc gap-1 ps-4 font-medium">
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  )
}
