import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Table, TableBody, TableCell, TableRow } from './table'

describe('the table primitive (issue 26.15)', () => {
  it('is named by its label, and before it can measure itself (server, no JavaScript) its container is a named region in the tab order', () => {
    const html = renderToString(
      <Table label="Audit log">
        <TableBody>
          <TableRow>
            <TableCell>one</TableCell>
          </TableRow>
        </TableBody>
      </Table>,
    )
    expect(html).toMatch(/<div data-slot="table-container"[^>]* role="region" aria-label="Audit log" tabindex="0"/)
    expect(html).toMatch(/<table data-slot="table" role="table" aria-label="Audit log"/)
  })
})
