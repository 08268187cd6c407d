import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { illFormedArguments } from '../validation.ts';

/**
 * Refuses a request whose variables hold a string (or an object key) that is not well-formed Unicode: one check for
 * every text field of every operation, before any resolver runs. String literals in the document need none: graphql-js
 * refuses a lone surrogate there as a syntax error.
 */
export function useWellFormedVariables(): Plugin {
  const check = (variables: unknown, stop: (result: { errors: ReturnType<typeof createGraphQLError>[] }) => void) => {
    const refusal = variables == null ? null : illFormedArguments(variables);
    if (refusal) stop({ errors: [createGraphQLError(refusal, { extensions: { code: 'BAD_USER_INPUT' } })] });
  };
  return {
    onExecute: ({ args, setResultAndStopExecution }) => check(args.variableValues, setResultAndStopExecution),
    onSubscribe: ({ args, setResultAndStopExecution }) => check(args.variableValues, setResultAndStopExecution),
  };
}
