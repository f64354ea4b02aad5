/**
 * The order fields that hold a delivered secret on the customer's device: every one a device-side
 * protection (a PIN vault, say) must cover. `deliveryLines` is a list of strings, the others strings.
 * A module of its own, without zod: the device's vault reads it, and importing it from deliveries.ts
 * brought zod and every delivery schema into the device's code (decision 070).
 */
export const deliveredSecretFields = ['wisePassword', 'serverPassword', 'deliveryLines'] as const;
