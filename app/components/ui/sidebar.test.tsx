import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import {
  isSidebarShortcut,
  Sidebar,
  SidebarContent,
  SidebarInset,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarProvider,
  sidebarStateCookie,
  SidebarTrigger,
} from './sidebar'

function render(defaultOpen: boolean) {
  return renderToString(
    <SidebarProvider defaultOpen={defaultOpen}>
      <Sidebar aria-label="Main">
        <SidebarContent>
          <SidebarMenu>
            <SidebarMenuItem>
              <SidebarMenuButton tooltip="Home">Home</SidebarMenuButton>
            </SidebarMenuItem>
          </SidebarMenu>
        </SidebarContent>
      </Sidebar>
      <SidebarInset>
        <SidebarTrigger />
      </SidebarInset>
    </SidebarProvider>,
  )
}

describe('Sidebar', () => {
  it('server-renders collapsed to icons when defaultOpen is false', () => {
    const html = render(false)
    expect(html).toContain('data-state="collapsed"')
    expect(html).toContain('data-collapsible="icon"')
    expect(html).toMatch(/aria-label="Toggle Sidebar"[^>]*aria-expanded="false"/)
  })

  it('server-renders expanded when defaultOpen is true', () => {
    const html = render(true)
    expect(html).toContain('data-state="expanded"')
    expect(html).toContain('data-collapsible=""')
    expect(html).toMatch(/aria-label="Toggle Sidebar"[^>]*aria-expanded="true"/)
  })

  it('points the trigger at the labelled nav panel', () => {
    const html = render(true)
    const navId = /<nav id="([^"]+)" aria-label="Main"/.exec(html)?.[1]
    expect(navId).toBeTruthy()
    expect(html).toContain(`aria-controls="${navId}"`)
    expect(html).toContain('--sidebar-width:16rem')
    expect(html).toContain('--sidebar-width-icon:3rem')
  })

  it('persists state in a 7-day cookie', () => {
    expect(sidebarStateCookie(false)).toBe('sidebar_state=false; path=/; max-age=604800')
    expect(sidebarStateCookie(true)).toBe('sidebar_state=true; path=/; max-age=604800')
  })

  it('toggles on Ctrl+B and Cmd+B only', () => {
    const base = { key: 'b', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false }
    expect(isSidebarShortcut({ ...base, ctrlKey: true })).toBe(true)
    expect(isSidebarShortcut({ ...base, metaKey: true })).toBe(true)
    expect(isSidebarShortcut({ ...base, key: 'B', ctrlKey: true })).toBe(true)
    expect(isSidebarShortcut(base)).toBe(false)
    expect(isSidebarShortcut({ ...base, ctrlKey: true, shiftKey: true })).toBe(false)
    expect(isSidebarShortcut({ ...base, key: 'n', ctrlKey: true })).toBe(false)
  })
})
