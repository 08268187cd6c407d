import { useExtractionUsageQuery } from '../generated/graphql';
import { formatNumber, plural } from './format';

/** The extraction model's tokens used today by one key, against its daily budget; nothing while no model is set. */
export function ExtractionUsage({ apiKeyId }: { apiKeyId: string }) {
  const { data } = useExtractionUsageQuery({ apiKeyId });
  const model = data?.memorySettings.extractionModel;
  if (!data || !model) return null;
  const u = data.extractionModelUsage;
  return (
    <p className="mem-usage muted" role="note">
      Extraction model <code>{model}</code>: {formatNumber(u.tokensUsed)} of {formatNumber(u.dailyTokens)} tokens used today by {apiKeyId} (
      {plural(u.calls, 'call')}; the UTC day {u.day}).
    </p>
  );
}
