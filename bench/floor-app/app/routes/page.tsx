export function meta() {
  return [{ title: 'Floor · Forkmarket benchmark' }, { name: 'description', content: 'The framework floor of the benchmark.' }]
}

export default function Page() {
  return (
    <main>
      <h1>Framework floor</h1>
      <p>A React Router page with no data, built and served like the app.</p>
    </main>
  )
}
