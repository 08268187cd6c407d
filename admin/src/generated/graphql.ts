/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { useQuery, useMutation, UseQueryOptions, UseMutationOptions } from '@tanstack/react-query';
import { fetcher } from '../lib/fetcher';
export type EmbeddingSource =
  | 'AUTO'
  | 'REMOTE'
  | 'STATIC'
  | 'TRANSFORMERS';

/** Only the fields given change. Values out of range are rejected, not clamped. */
export type MemorySettingsInput = {
  autoSummarize?: boolean | null | undefined;
  embeddingProviderModel?: string | null | undefined;
  embeddingSource?: EmbeddingSource | null | undefined;
  enabled?: boolean | null | undefined;
  maxTokens?: number | null | undefined;
  rerankEnabled?: boolean | null | undefined;
  rerankProviderModel?: string | null | undefined;
  retentionDays?: number | null | undefined;
  staticEnabled?: boolean | null | undefined;
  strategy?: RetrievalStrategy | null | undefined;
  transformersEnabled?: boolean | null | undefined;
  userRoleProviders?: Array<string> | null | undefined;
  vectorStore?: VectorStore | null | undefined;
};

export type RetrievalStrategy =
  | 'EXACT'
  | 'HYBRID'
  | 'SEMANTIC';

export type VectorStore =
  | 'AUTO'
  | 'QDRANT'
  | 'SQLITE_VEC';

export type MemoryHealthQueryVariables = Exact<{ [key: string]: never; }>;


export type MemoryHealthQuery = { memoryHealth: { ok: boolean, latencyMs: number, error: string | null, checkedAt: string } };

export type MemorySettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type MemorySettingsQuery = { memorySettings: { enabled: boolean, maxTokens: number, retentionDays: number, strategy: RetrievalStrategy, embeddingSource: EmbeddingSource, embeddingProviderModel: string | null, transformersEnabled: boolean, staticEnabled: boolean, rerankEnabled: boolean, rerankProviderModel: string | null, vectorStore: VectorStore, autoSummarize: boolean, userRoleProviders: Array<string> } };

export type UpdateMemorySettingsMutationVariables = Exact<{
  input: MemorySettingsInput;
}>;


export type UpdateMemorySettingsMutation = { updateMemorySettings: { enabled: boolean, maxTokens: number, retentionDays: number, strategy: RetrievalStrategy, embeddingSource: EmbeddingSource, embeddingProviderModel: string | null, transformersEnabled: boolean, staticEnabled: boolean, rerankEnabled: boolean, rerankProviderModel: string | null, vectorStore: VectorStore, autoSummarize: boolean, userRoleProviders: Array<string> } };


export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}

export const MemoryHealthDocument = new TypedDocumentString(`
    query MemoryHealth {
  memoryHealth {
    ok
    latencyMs
    error
    checkedAt
  }
}
    `);

export const useMemoryHealthQuery = <
      TData = MemoryHealthQuery,
      TError = unknown
    >(
      variables?: MemoryHealthQueryVariables,
      options?: Omit<UseQueryOptions<MemoryHealthQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<MemoryHealthQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<MemoryHealthQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['MemoryHealth'] : ['MemoryHealth', variables],
    queryFn: fetcher<MemoryHealthQuery, MemoryHealthQueryVariables>(MemoryHealthDocument, variables),
    ...options
  }
    )};

useMemoryHealthQuery.getKey = (variables?: MemoryHealthQueryVariables) => variables === undefined ? ['MemoryHealth'] : ['MemoryHealth', variables];


useMemoryHealthQuery.fetcher = (variables?: MemoryHealthQueryVariables, options?: RequestInit['headers']) => fetcher<MemoryHealthQuery, MemoryHealthQueryVariables>(MemoryHealthDocument, variables, options);

export const MemorySettingsDocument = new TypedDocumentString(`
    query MemorySettings {
  memorySettings {
    enabled
    maxTokens
    retentionDays
    strategy
    embeddingSource
    embeddingProviderModel
    transformersEnabled
    staticEnabled
    rerankEnabled
    rerankProviderModel
    vectorStore
    autoSummarize
    userRoleProviders
  }
}
    `);

export const useMemorySettingsQuery = <
      TData = MemorySettingsQuery,
      TError = unknown
    >(
      variables?: MemorySettingsQueryVariables,
      options?: Omit<UseQueryOptions<MemorySettingsQuery, TError, TData>, 'queryKey'> & { queryKey?: UseQueryOptions<MemorySettingsQuery, TError, TData>['queryKey'] }
    ) => {
    
    return useQuery<MemorySettingsQuery, TError, TData>(
      {
    queryKey: variables === undefined ? ['MemorySettings'] : ['MemorySettings', variables],
    queryFn: fetcher<MemorySettingsQuery, MemorySettingsQueryVariables>(MemorySettingsDocument, variables),
    ...options
  }
    )};

useMemorySettingsQuery.getKey = (variables?: MemorySettingsQueryVariables) => variables === undefined ? ['MemorySettings'] : ['MemorySettings', variables];


useMemorySettingsQuery.fetcher = (variables?: MemorySettingsQueryVariables, options?: RequestInit['headers']) => fetcher<MemorySettingsQuery, MemorySettingsQueryVariables>(MemorySettingsDocument, variables, options);

export const UpdateMemorySettingsDocument = new TypedDocumentString(`
    mutation UpdateMemorySettings($input: MemorySettingsInput!) {
  updateMemorySettings(input: $input) {
    enabled
    maxTokens
    retentionDays
    strategy
    embeddingSource
    embeddingProviderModel
    transformersEnabled
    staticEnabled
    rerankEnabled
    rerankProviderModel
    vectorStore
    autoSummarize
    userRoleProviders
  }
}
    `);

export const useUpdateMemorySettingsMutation = <
      TError = unknown,
      TContext = unknown
    >(options?: UseMutationOptions<UpdateMemorySettingsMutation, TError, UpdateMemorySettingsMutationVariables, TContext>) => {
    
    return useMutation<UpdateMemorySettingsMutation, TError, UpdateMemorySettingsMutationVariables, TContext>(
      {
    mutationKey: ['UpdateMemorySettings'],
    mutationFn: (variables?: UpdateMemorySettingsMutationVariables) => fetcher<UpdateMemorySettingsMutation, UpdateMemorySettingsMutationVariables>(UpdateMemorySettingsDocument, variables)(),
    ...options
  }
    )};


useUpdateMemorySettingsMutation.fetcher = (variables: UpdateMemorySettingsMutationVariables, options?: RequestInit['headers']) => fetcher<UpdateMemorySettingsMutation, UpdateMemorySettingsMutationVariables>(UpdateMemorySettingsDocument, variables, options);
