/** DI tokens of the values built before Nest starts (config, logger), shared by main and tests. */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
export const GATEWAY_LOGGER = Symbol('GATEWAY_LOGGER');
