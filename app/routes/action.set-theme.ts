import { createThemeAction } from 'remix-themes'
import { themeSessionResolver } from '~/server/cookies.server'

export const action = createThemeAction(themeSessionResolver)
