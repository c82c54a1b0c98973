export interface Acknowledgement {
  findingId: string;
  byUser: string;
  at: Date;
}
