import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';

/** The admin app: built into admin/dist and served by `mnemo serve` at /admin/; `npm run dev` proxies the API. */
export default defineConfig({
  root: import.meta.dirname,
  base: '/admin/',
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Brotli at its best quality takes seconds by design (once per build): not a slow plugin worth a warning.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: {
    port: 5173,
    proxy: {
      '/graphql': { target: process.env.MNEMO_URL ?? 'http://127.0.0.1:4000', changeOrigin: true },
      '/export': { target: process.env.MNEMO_URL ?? 'http://127.0.0.1:4000', changeOrigin: true },
    },
  },
});
