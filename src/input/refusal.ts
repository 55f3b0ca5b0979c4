/**
 * What a check says when it refuses: the JSON-RPC error a legacy server gets. The modern era
 * carries the same code in a `ClientError` of kind `"input_refused"`.
 */
export interface Refusal {
  code: number;
  message: string;
}

export type Verdict<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

export const pass = <T>(value: T): Verdict<T> => ({ ok: true, value });
export const refuse = <T = never>(code: number, message: string): Verdict<T> => ({ ok: false, refusal: { code, message } });
