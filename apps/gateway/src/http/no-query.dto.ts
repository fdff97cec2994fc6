/**
 * The query of a route that takes no parameters: validated like any DTO, so every parameter
 * is unknown and answered 400 `invalid_request` rather than silently ignored.
 */
export class NoQueryDto {}
