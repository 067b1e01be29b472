/** A stage packaged with `MAINTENANCE=on` answers 503 on every route without reading the switch (docs/operations.md). */
import { describe, expect, it } from 'vitest';
import { ApiError } from '#shared/errors.ts';
import { refuseDuringMaintenance } from '#shared/http/maintenance-mode.ts';

describe('maintenance forced by the deploy', () => {
  it('refuses with 503 SERVER_IS_DOWN and Retry-After 300, reading nothing (this project opens no connection)', async () => {
    // Prepare: the configuration is read on first use, after this.
    process.env.MAINTENANCE = 'on';
    // Act
    const refusal = await refuseDuringMaintenance().catch((error: unknown) => error);
    // Assess
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 503, exception: 'ServiceUnavailable', code: 'SERVER_IS_DOWN' });
    expect((refusal as ApiError).headers).toEqual({ 'Retry-After': '300' });
  });
});
