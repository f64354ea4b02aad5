import { withDefaultSettings, type SiteSettings } from '../contract/settings.ts';

/** A stored value over the defaults. */
export const toSiteSettings = (value: Record<string, unknown> | null | undefined): SiteSettings =>
  withDefaultSettings(value as Partial<SiteSettings> | null | undefined);
