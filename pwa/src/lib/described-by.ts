/** An `aria-describedby` of the ids given, falsy ones left out: undefined when none is left. */
export const describedBy = (...ids: (string | false | null | undefined)[]): string | undefined => ids.filter(Boolean).join(' ') || undefined;
