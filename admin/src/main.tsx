import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { GraphQLRequestError } from './lib/fetcher';
import './styles.css';

const client = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      // Auth and input errors will not fix themselves: only retry what might be transient.
      retry: (count, error) => !(error instanceof GraphQLRequestError && error.code !== null) && count < 2,
    },
  },
  queryCache: new QueryCache(),
  mutationCache: new MutationCache(),
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
