export interface ResolveServicenetHandleQuery {
  handle: string;
}
