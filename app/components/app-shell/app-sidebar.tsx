import { House, LayoutDashboard, LogOut, ShieldCheck, ShoppingBag, Store, UserRound, Webhook, type LucideIcon } from 'lucide-react'
import * as React from 'react'
import { Form, Link, NavLink, useMatch } from 'react-router'
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarGroupContent,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarSeparator,
  useSidebar,
} from '~/components/ui/sidebar'
import { LogoMark } from './logo-mark'

export type AppSidebarUser = { email: string; isAdmin: boolean }

type NavItem = { to: string; label: string; icon: LucideIcon; end?: boolean }

const browseItems: NavItem[] = [
  { to: '/', label: 'Home', icon: House, end: true },
  { to: '/marketplace', label: 'Marketplace', icon: Store },
]

const accountItems: NavItem[] = [
  { to: '/seller/dashboard', label: 'Seller Dashboard', icon: LayoutDashboard },
  { to: '/seller/webhooks', label: 'Webhooks', icon: Webhook },
  { to: '/purchases', label: 'My Purchases', icon: ShoppingBag },
  { to: '/profile', label: 'Profile', icon: UserRound },
]

const adminItems: NavItem[] = [{ to: '/admin', label: 'Admin Dashboard', icon: ShieldCheck }]

export function AppSidebar({ user }: { user: AppSidebarUser | null }) {
  const { isMobile, setOpenMobile } = useSidebar()
  return (
    <Sidebar aria-label="Main" collapsible="icon">
      {/* On desktop the site header shows the brand beside the sidebar; the mobile sheet covers it. */}
      {isMobile ? (
        <SidebarHeader className="h-14 justify-center border-b border-sidebar-border px-4">
          <Link
            to="/"
            onClick={() => setOpenMobile(false)}
            className="flex w-fit items-center gap-2 rounded-md text-base font-semibold tracking-tight"
          >
            <LogoMark />
            <span>Forkmarket</span>
          </Link>
        </SidebarHeader>
      ) : null}
      <SidebarContent className="pt-2">
        <NavGroup label="Browse" items={browseItems} />
        <NavGroup label="Your account" items={accountItems} />
        {user?.isAdmin ? <NavGroup label="Administration" items={adminItems} /> : null}
      </SidebarContent>
      {user ? (
        <>
          <SidebarSeparator />
          <SidebarFooter>
            <UserSummary email={user.email} />
            <SidebarMenu>
              <SidebarMenuItem>
                <Form method="post" action="/logout">
                  <SidebarMenuButton type="submit" tooltip="Sign Out">
                    <LogOut aria-hidden="true" />
                    <span>Sign Out</span>
                  </SidebarMenuButton>
                </Form>
              </SidebarMenuItem>
            </SidebarMenu>
          </SidebarFooter>
        </>
      ) : null}
    </Sidebar>
  )
}

function NavGroup({ label, items }: { label: string; items: NavItem[] }) {
  const labelId = React.useId()
  return (
    <SidebarGroup>
      <SidebarGroupLabel id={labelId}>{label}</SidebarGroupLabel>
      <SidebarGroupContent>
        <SidebarMenu aria-labelledby={labelId}>
          {items.map((item) => (
            <NavMenuItem key={item.to} item={item} />
          ))}
        </SidebarMenu>
      </SidebarGroupContent>
    </SidebarGroup>
  )
}

function NavMenuItem({ item }: { item: NavItem }) {
  // Same matching rule as <NavLink>, which also sets aria-current="page".
  const isActive = useMatch({ path: item.to, end: item.end ?? false }) !== null
  const { isMobile, setOpenMobile } = useSidebar()
  const Icon = item.icon
  return (
    <SidebarMenuItem>
      <SidebarMenuButton asChild isActive={isActive} tooltip={item.label}>
        <NavLink
          to={item.to}
          end={item.end}
          onClick={() => {
            if (isMobile) setOpenMobile(false)
          }}
        >
          <Icon aria-hidden="true" />
          <span>{item.label}</span>
        </NavLink>
      </SidebarMenuButton>
    </SidebarMenuItem>
  )
}

function UserSummary({ email }: { email: string }) {
  const initial = email.trim().charAt(0).toUpperCase() || '?'
  return (
    <div className="flex items-center gap-2 px-1 py-1 group-data-[collapsible=icon]:px-0">
      {/* The initial in a circle: no image to load, so no avatar component. */}
      <span
        aria-hidden="true"
        data-slot="user-initial"
        className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
      >
        {initial}
      </span>
      {/* Stays readable by screen readers when the rail hides it visually. */}
      <div className="grid min-w-0 flex-1 leading-tight group-data-[collapsible=icon]:sr-only">
        <span className="truncate text-sm font-medium" title={email}>
          {email}
        </span>
        <span className="truncate text-xs text-muted-foreground">Signed in</span>
      </div>
    </div>
  )
}
