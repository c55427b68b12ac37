import { index, route, type RouteConfig } from '@react-router/dev/routes'

// One route module answers every path (the index and a splat, since `*` alone
// doesn't match `/`), so the floor serves the same URLs the app is measured
// on (/, /marketplace?…, /listing/…) with no data.
export default [index('routes/page.tsx'), route('*', 'routes/page.tsx', { id: 'routes/page-splat' })] satisfies RouteConfig
