import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useState } from 'react'
import { Form, useNavigation } from 'react-router'
import { Button } from '~/components/ui/button'
import { Field, FormErrors } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { NativeSelect } from '~/components/ui/native-select'
import { useHydrated } from '~/components/ui/use-hydrated'
import {
  BANK_FIELD_HINTS,
  BankDetailsFieldsSchema,
  BankDetailsSchema,
  fieldsForCountry,
  type BankAccountDetails,
  type FieldGroup,
} from '~/lib/bank-details-schema'
import { COUNTRIES, COUNTRY_LABELS, isOneOf } from '~/lib/options'

const ALL_GROUPS = new Set<FieldGroup>(['sortCode', 'accountNumber', 'routingNumber', 'iban', 'swift'])
const constraint = getZodConstraint(BankDetailsFieldsSchema)

/**
 * Bank details (spec "Profile", §5). With JavaScript only the chosen
 * country's account fields show; without it every group is shown, labelled
 * with the countries it is for, and the server keeps only the chosen
 * country's fields. Stored numbers come back masked ('•••• 1234'): leaving
 * them as they are keeps the stored number.
 */
export function BankDetailsForm({
  lastResult,
  defaultValue,
  submitLabel,
}: {
  lastResult?: SubmissionResult<string[]> | null
  defaultValue: BankAccountDetails | null
  submitLabel: string
}) {
  const hydrated = useHydrated()
  const navigation = useNavigation()
  const saving = navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST'
  const [form, fields] = useForm({
    id: 'bank-details',
    lastResult,
    defaultValue: defaultValue ?? undefined,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BankDetailsSchema }),
  })
  // The chosen country decides which fields show. Read it from the select itself, so a choice
  // made before hydration (slow connection) is not overridden by the server-rendered default.
  const [country, setCountry] = useState(defaultValue?.country ?? '')
  const countryId = fields.country.id
  useEffect(() => {
    const select = document.getElementById(countryId)
    if (select instanceof HTMLSelectElement) setCountry(select.value)
  }, [countryId])
  const shown = hydrated ? new Set(fieldsForCountry(isOneOf(COUNTRIES, country) ? country : '')) : ALL_GROUPS
  // Before hydration every group is on screen, so say which countries each field is for
  // (one run of text, so a long label wraps as a sentence rather than in two columns).
  const labelFor = (name: string, countries: string) =>
    hydrated ? (
      name
    ) : (
      <span className="leading-snug">
        {name} <span className="font-normal text-muted-foreground">({countries})</span>
      </span>
    )
  const masked = (value: string | null | undefined) =>
    value?.startsWith('•') ? `Shown masked: leave ${value} as it is to keep the stored number.` : null

  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-5">
      <FormErrors meta={form} />
      <Field meta={fields.country} label="Country" control="select">
        {(props) => (
          <NativeSelect {...props} onChange={(event) => setCountry(event.currentTarget.value)}>
            <option value="">Select a country</option>
            {COUNTRIES.map((code) => (
              <option key={code} value={code}>
                {COUNTRY_LABELS[code]}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      <Field meta={fields.accountHolder} label="Account holder name">
        {(props) => <Input {...props} autoComplete="name" />}
      </Field>
      <Field meta={fields.bankName} label="Bank name">
        {(props) => <Input {...props} autoComplete="off" />}
      </Field>

      {shown.size === 0 ? (
        <p className="text-sm text-muted-foreground">Choose a country to enter the account details its banks use.</p>
      ) : null}

      {/* Two columns pair one country's fields; with every group on screen (no JavaScript), one column reads in order. */}
      <div className={hydrated ? 'grid gap-5 sm:grid-cols-2' : 'grid gap-5'}>
        {shown.has('sortCode') ? (
          <Field meta={fields.sortCode} label={labelFor('Sort code', 'United Kingdom')} description={BANK_FIELD_HINTS.sortCode}>
            {(props) => <Input {...props} inputMode="numeric" autoComplete="off" placeholder="04-00-04" />}
          </Field>
        ) : null}
        {shown.has('routingNumber') ? (
          <Field
            meta={fields.routingNumber}
            label={labelFor('Routing number', 'United States')}
            description={BANK_FIELD_HINTS.routingNumber}
          >
            {(props) => <Input {...props} inputMode="numeric" autoComplete="off" />}
          </Field>
        ) : null}
        {shown.has('accountNumber') ? (
          <Field
            meta={fields.accountNumber}
            label={labelFor('Account number', 'United Kingdom and United States')}
            description={
              <>
                {country === 'US' ? BANK_FIELD_HINTS.accountNumberUs : BANK_FIELD_HINTS.accountNumber}
                {masked(defaultValue?.accountNumber) ? <> · {masked(defaultValue?.accountNumber)}</> : null}
              </>
            }
          >
            {(props) => <Input {...props} inputMode="numeric" autoComplete="off" />}
          </Field>
        ) : null}
        {shown.has('iban') ? (
          <Field
            meta={fields.iban}
            label={labelFor('IBAN', 'every other country')}
            description={masked(defaultValue?.iban) ?? BANK_FIELD_HINTS.iban}
            className={hydrated ? 'sm:col-span-2' : undefined}
          >
            {(props) => <Input {...props} autoComplete="off" spellCheck={false} />}
          </Field>
        ) : null}
        {shown.has('swift') ? (
          <Field meta={fields.swift} label={labelFor('BIC/SWIFT', 'every other country')} description={BANK_FIELD_HINTS.swift}>
            {(props) => <Input {...props} autoComplete="off" spellCheck={false} />}
          </Field>
        ) : null}
      </div>

      <div className="flex justify-end">
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving…' : submitLabel}
        </Button>
      </div>
    </Form>
  )
}

/** Used by the route to decide the button wording from the current state. */
export function submitLabelFor(status: 'pending' | 'approved' | 'rejected' | null): string {
  return status === 'rejected' ? 'Resubmit for Approval' : 'Save Bank Details'
}
