import { z } from 'zod';

/** Where sweeps are read from: the tag naming the sweep an instance belongs to, and the window its usage adds up over. */
export const sweepsSchema = z.strictObject({
  /** Instances carrying this tag belong to the sweep it names (compared like ownership tag keys). */
  tagKey: z.string({ error: 'expected a tag key' }).trim().min(1, { error: 'expected a tag key such as sweep' }).default('sweep'),
  /** A sweep's spend and GPU-hours are added up over this many hours up to now. */
  windowHours: z
    .number({ error: 'expected hours' })
    .positive({ error: 'expected hours above 0' })
    .max(24 * 31, { error: 'expected at most 744 hours' })
    .default(168),
});

/** A team's caps on one sweep: crossing either alerts once, with a Stop sweep button. */
export const sweepCapsSchema = z
  .strictObject({
    /** USD spent by one sweep within the window. */
    spend: z.number({ error: 'expected an amount' }).positive({ error: 'expected an amount above 0' }).optional(),
    /** GPU-hours (hours running × GPUs) of one sweep within the window. */
    gpuHours: z.number({ error: 'expected GPU-hours' }).positive({ error: 'expected GPU-hours above 0' }).optional(),
  })
  .refine((caps) => caps.spend !== undefined || caps.gpuHours !== undefined, {
    error: 'expected spend, gpuHours or both, e.g. { spend: 2000 }',
  });

export type SweepsPolicy = z.output<typeof sweepsSchema>;
export type SweepCaps = z.output<typeof sweepCapsSchema>;
