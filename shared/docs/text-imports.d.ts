// The files the docs page imports as text (`with { type: 'text' }`): esbuild bundles them into the
// handler, and the local run and the tests load them the same way.
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const text: string;
  export default text;
}
declare module 'swagger-ui-dist/swagger-ui-bundle.js.LICENSE.txt' {
  const text: string;
  export default text;
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const text: string;
  export default text;
}
