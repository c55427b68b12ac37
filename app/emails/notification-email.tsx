import { Body, Button, Container, Head, Heading, Hr, Html, Preview, Section, Text } from '@react-email/components'
import { render } from '@react-email/render'
import type { NotificationContent } from './content'

/**
 * One notification as an e-mail (issue 17), written with React Email: the
 * product's look (the same ink, muted and primary colours as the app's light
 * theme), HTML plus a plain-text part. Links are absolute (`appUrl`).
 */
const INK = '#0f172a'
const MUTED = '#475569'
const PRIMARY = '#1d4ed8'

function NotificationEmail({ content, appUrl }: { content: NotificationContent; appUrl: string }) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{content.summary}</Preview>
      <Body style={{ backgroundColor: '#f8fafc', color: INK, fontFamily: 'system-ui, -apple-system, Segoe UI, sans-serif' }}>
        <Container
          style={{
            backgroundColor: '#ffffff',
            border: '1px solid #e2e8f0',
            borderRadius: 8,
            margin: '24px auto',
            maxWidth: 560,
            padding: 24,
          }}
        >
          <Text style={{ color: MUTED, fontSize: 14, fontWeight: 600, margin: 0 }}>Forkmarket</Text>
          <Heading as="h1" style={{ fontSize: 22, margin: '12px 0' }}>
            {content.heading}
          </Heading>
          <Text style={{ fontSize: 16 }}>{content.summary}</Text>
          {content.paragraphs.map((paragraph, index) => (
            <Text key={index} style={{ fontSize: 15, lineHeight: '22px' }}>
              {paragraph}
            </Text>
          ))}
          {content.rows && content.rows.length > 0 ? (
            <Section style={{ margin: '16px 0' }}>
              <table role="presentation" style={{ borderCollapse: 'collapse', width: '100%' }}>
                <tbody>
                  {content.rows.map((row, index) => (
                    <tr key={index}>
                      <td style={{ borderTop: '1px solid #e2e8f0', color: MUTED, fontSize: 14, padding: '6px 0' }}>{row.label}</td>
                      <td style={{ borderTop: '1px solid #e2e8f0', fontSize: 14, padding: '6px 0', textAlign: 'right' }}>{row.value}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Section>
          ) : null}
          {content.action ? (
            <Button
              href={new URL(content.action.path, appUrl).toString()}
              style={{ backgroundColor: PRIMARY, borderRadius: 6, color: '#ffffff', fontSize: 15, padding: '10px 16px' }}
            >
              {content.action.label}
            </Button>
          ) : null}
          {content.footnote ? (
            <>
              <Hr style={{ borderColor: '#e2e8f0', margin: '24px 0 12px' }} />
              <Text style={{ color: MUTED, fontSize: 13 }}>{content.footnote}</Text>
            </>
          ) : null}
        </Container>
      </Body>
    </Html>
  )
}

/** The plain-text part: the same words, the link written out. */
export function notificationText(content: NotificationContent, appUrl: string): string {
  const lines = [content.heading, '', content.summary, '', ...content.paragraphs.flatMap((p) => [p, ''])]
  if (content.rows?.length) lines.push(...content.rows.map((row) => `${row.label}: ${row.value}`), '')
  if (content.action) lines.push(`${content.action.label}: ${new URL(content.action.path, appUrl).toString()}`, '')
  if (content.footnote) lines.push(content.footnote, '')
  lines.push('Forkmarket')
  return lines.join('\n')
}

export async function renderNotificationEmail(content: NotificationContent, appUrl: string): Promise<{ html: string; text: string }> {
  const html = await render(<NotificationEmail content={content} appUrl={appUrl} />)
  return { html, text: notificationText(content, appUrl) }
}
