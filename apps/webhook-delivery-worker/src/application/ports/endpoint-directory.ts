/** An endpoint as the attempt needs it, from the webhook-delivery service (which owns endpoints). */
export interface EndpointTarget {
  endpointId: string;
  organizationId: string;
  url: string;
  /** False once disabled or deleted: due deliveries are dropped. */
  active: boolean;
  /** The secrets to sign with now, current first (two during a rotation's grace period). */
  secrets: string[];
}

export abstract class EndpointDirectory {
  /** Null for an id the service does not know. */
  abstract target(endpointId: string): Promise<EndpointTarget | null>;
  /** Asks the service to disable the endpoint (410 Gone, or failing past WEBHOOK_DISABLE_AFTER). */
  abstract disable(endpointId: string, reason: 'gone' | 'failing'): Promise<void>;
}
