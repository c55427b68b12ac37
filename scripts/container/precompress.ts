/**
 * Writes the .br and .gz copies of the built assets at image build time: the runtime user cannot
 * write to /app, and the server then finds them present (static-assets.server.ts).
 */
import { precompressAssets } from '../../app/server/http/static-assets.server.ts'

const dir = process.argv[2]
if (!dir) throw new Error('Usage: tsx scripts/container/precompress.ts <assets directory>')
precompressAssets(dir)
