// async-exit-hook ships no types; only what db/embedded.ts uses.
declare module 'async-exit-hook' {
  interface AsyncExitHook {
    unhookEvent(event: string): void
  }
  const hook: AsyncExitHook
  export default hook
}
