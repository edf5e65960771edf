// The cart list's query (§9), shared by the cart's calls and the boot script's first calls.

/** §9: the cart list's default filter. */
export const CART_FILTER = 99999;

/** `cart/list`'s query as every page asks it. */
export const CART_LIST_PARAMS = { filters: CART_FILTER, new: 1 } as const;
