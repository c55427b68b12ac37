/** S3's XML answers: the error document and the few result shapes the emulator returns. */

export const S3_NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/'

export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
}

/** `<Name>value</Name>` for each entry (nested arrays of entries for repeated/compound elements). */
export type XmlNode = [string, string | number | boolean | XmlNode[]]

function render(nodes: XmlNode[]): string {
  return nodes.map(([name, value]) => `<${name}>${Array.isArray(value) ? render(value) : escapeXml(String(value))}</${name}>`).join('')
}

export function xmlDocument(root: string, children: XmlNode[], namespaced = true): string {
  const attributes = namespaced ? ` xmlns="${S3_NAMESPACE}"` : ''
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root}${attributes}>${render(children)}</${root}>`
}

/** S3's error body: Code, Message, the error's own elements, RequestId and HostId. */
export function errorDocument(code: string, message: string, details: Record<string, string>, requestId: string, hostId: string): string {
  return xmlDocument(
    'Error',
    [
      ['Code', code],
      ['Message', message],
      ...Object.entries(details).map(([k, v]): XmlNode => [k, v]),
      ['RequestId', requestId],
      ['HostId', hostId],
    ],
    false,
  )
}
