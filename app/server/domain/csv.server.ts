// Spreadsheet apps run a cell that starts with one of these as a formula (CSV
// injection). A locale whose separator is `;` (or a reader that splits on `,`
// despite the quotes) starts a new cell after either, so a formula character
// right after a separator inside the text is neutralised as well.
const FORMULA_START = /^[=+\-@\t\r]/
const FORMULA_AFTER_SEPARATOR = /([,;])(\s*)(?=[=+\-@])/g

/** One CSV cell: always quoted, never read as a formula by Excel, LibreOffice or Sheets in any locale. */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value)
  if (FORMULA_START.test(text)) text = `'${text}`
  text = text.replace(FORMULA_AFTER_SEPARATOR, "$1$2'")
  return `"${text.replace(/"/g, '""')}"`
}
