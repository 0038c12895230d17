/** Default most model requests in one run. */
export const DEFAULT_MAX_STEPS = 16;
