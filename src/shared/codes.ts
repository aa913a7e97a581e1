import countries from 'i18n-iso-countries';
import { z } from 'zod';

const currencies = new Set(Intl.supportedValuesOf('currency'));

/** ISO 3166-1 alpha-2, any case in, upper case out. */
export const countryCodeSchema = z
  .string()
  .regex(/^[A-Za-z]{2}$/, { message: 'must be an ISO 3166-1 alpha-2 country code such as "CH"' })
  .refine((code) => countries.isValid(code.toUpperCase()), {
    message: 'is not an ISO 3166-1 alpha-2 country code (for example "CH", "NZ", "US")',
  })
  .transform((code) => code.toUpperCase())
  .describe('ISO 3166-1 alpha-2 country code, e.g. "CH"');

/** ISO 4217, any case in; callers choose the case they store. */
export const currencyCodeSchema = z
  .string()
  .regex(/^[A-Za-z]{3}$/, { message: 'must be an ISO 4217 currency code of three letters such as "eur"' })
  .refine((code) => currencies.has(code.toUpperCase()), {
    message: 'is not an ISO 4217 currency code (for example "usd", "eur", "chf")',
  })
  .describe('ISO 4217 currency code, three letters, e.g. "eur"');
