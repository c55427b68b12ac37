import { notBuilt } from './not-built.server.ts'

export const createListingApiAction = notBuilt
