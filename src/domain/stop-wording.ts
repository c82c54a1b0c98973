/**
 * How a cloud's Stop acts where it is not a plain stop, for the confirmation people read before
 * they click: Azure deallocates, because a VM stopped but still allocated keeps billing.
 */
export interface StopWording {
  /** What Stop does, naming the kind of machine: "deallocates Azure VM". */
  verb: string;
  /** Why it does that and not a plain stop. */
  why: string;
}
