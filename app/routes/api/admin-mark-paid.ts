import { notBuilt } from '~/server/not-built.server'

export const loader = notBuilt
export const action = notBuilt
