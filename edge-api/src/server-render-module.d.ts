// The build's server render as the worker imports it: wrangler.toml's [alias] maps this name to
// dist-ssr/server-render.js, which `npm run build` makes from pwa/src/server-render.tsx (decision 053).
declare module 'storefront-server-render' {
  import type { ServerRender } from './public-pages.ts';
  export const isPublicPage: ServerRender['isPublicPage'];
  export const renderPublicPage: ServerRender['renderPublicPage'];
}
