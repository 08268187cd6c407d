/**
 * Number fields are text inputs (no browser range checks, whose messages would speak instead of the server's): their
 * text becomes the API's number here, and the form names what only it can see.
 */

/** The number typed, or null for an empty field; NaN for text that is not a number. */
export function numberOf(text: string): number | null {
  return text.trim() === '' ? null : Number(text.trim());
}

/** "Max tokens is required." / "… must be a number."; null when it is a number. */
export function numberProblem(label: string, text: string, { required }: { required: boolean }): string | undefined {
  const n = numberOf(text);
  if (n === null) return required ? `${label} is required.` : undefined;
  return Number.isNaN(n) ? `${label} must be a number.` : undefined;
}
