import bcrypt from 'bcryptjs';
import { sql } from 'kysely';
import { Hono } from 'hono';
import type { AuthKit } from './auth-kit.ts';
import {
  BCRYPT_COST,
  deleteAuthUser,
  endSessions,
  findAuthUserByEmail,
  findAuthUserById,
  insertAuthUser,
  lockAuthUser,
  type AuthUserRow,
} from './auth-store.ts';
import { AuthFailure, checkNewPassword, normalizeEmail, readJsonObject, validationFailed } from './auth-requests.ts';
import { profileData } from './profile-data.ts';
import { toAuthUser } from './auth-user.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_PER_PAGE = 1000;

const positive = (value: string | undefined, fallback: number, name: string) => {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw validationFailed(`${name} must be a positive whole number`);
  return parsed;
};

/**
 * The GoTrue admin endpoints `npm run admin` uses against Supabase, on the embedded auth: list users
 * (with `filter` on the address), create one (optionally confirmed), and update one (password, address
 * confirmation, metadata). An admin password change ends every session of the account, as GoTrue's does.
 * All behind the service-role key (`requireServiceRole`).
 */
export function adminRoutes(kit: AuthKit): Hono {
  const { db, requireServiceRole, clock, logger } = kit;
  const app = new Hono();

  app.get('/admin/users', requireServiceRole, async (c) => {
    const page = positive(c.req.query('page'), 1, 'page');
    const perPage = Math.min(MAX_PER_PAGE, positive(c.req.query('per_page'), 50, 'per_page'));
    const filter = c.req.query('filter')?.trim().toLowerCase() ?? '';
    let query = db.selectFrom('auth_users');
    if (filter !== '') query = query.where(sql<string>`lower(email)`, 'like', `%${filter.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    const [rows, total] = await Promise.all([
      query
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    c.header('X-Total-Count', String(total.n));
    return c.json({ users: rows.map(toAuthUser), aud: 'authenticated' });
  });

  app.post('/admin/users', requireServiceRole, async (c) => {
    const body = await readJsonObject(c);
    const email = normalizeEmail(body.email);
    const password = body.password === undefined ? crypto.randomUUID() : checkNewPassword(body.password, 'Password must be a string');
    const metadata = profileData({}, body.user_metadata ?? body.data);
    const taken = () => new AuthFailure(422, 'email_exists', 'A user with this email address has already been registered');
    if (await findAuthUserByEmail(db, email)) throw taken();
    const user = await insertAuthUser(db, {
      id: crypto.randomUUID(),
      email,
      passwordHash: await bcrypt.hash(password, BCRYPT_COST),
      metadata,
      now: clock(),
      signedIn: false,
      confirmed: body.email_confirm === true,
    });
    if (!user) throw taken();
    logger.info('auth: user created by admin', { userId: user.id });
    return c.json(toAuthUser(user));
  });

  app.put('/admin/users/:id', requireServiceRole, async (c) => {
    const userId = c.req.param('id');
    if (!UUID.test(userId)) throw new AuthFailure(404, 'user_not_found', 'User not found');
    return c.json(toAuthUser(await updateUser(kit, userId, await readJsonObject(c))));
  });

  app.get('/admin/users/:id', requireServiceRole, async (c) => {
    const user = await findAuthUserById(db, c.req.param('id'));
    if (!user) throw new AuthFailure(404, 'user_not_found', 'User not found');
    return c.json(toAuthUser(user));
  });

  app.delete('/admin/users/:id', requireServiceRole, async (c) => {
    const userId = c.req.param('id');
    if (!(await deleteAuthUser(db, userId))) throw new AuthFailure(404, 'user_not_found', 'User not found');
    logger.info('auth: user deleted by admin', { userId });
    return c.json({});
  });
  return app;
}

/** An admin's update: password (ending every session and every wrong-password wait), confirmation, metadata. */
async function updateUser(kit: AuthKit, userId: string, body: Record<string, unknown>): Promise<AuthUserRow> {
  const { db, clock, logger } = kit;
  if (body.email !== undefined) throw validationFailed('Changing the email address is not supported');
  const password = body.password === undefined ? undefined : checkNewPassword(body.password, 'Password must be a string');
  profileData({}, body.user_metadata);
  const passwordHash = password === undefined ? undefined : await bcrypt.hash(password, BCRYPT_COST);
  const now = clock();
  const updated = await db.transaction().execute(async (trx): Promise<AuthUserRow> => {
    const current = await lockAuthUser(trx, userId);
    if (!current) throw new AuthFailure(404, 'user_not_found', 'User not found');
    const row = await trx
      .updateTable('auth_users')
      .set({
        user_metadata: JSON.stringify(profileData(current.user_metadata, body.user_metadata)),
        updated_at: now,
        ...(passwordHash && { encrypted_password: passwordHash }),
        ...(body.email_confirm === true && !current.email_confirmed_at && { email_confirmed_at: now }),
      })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (passwordHash) await endSessions(trx, userId);
    return row;
  });
  // The owner's reset (`npm run admin`) always works: the account's wrong-password waits end with it.
  if (passwordHash) await kit.limits.guesses.forget(updated.email);
  logger.info('auth: user updated by admin', { userId, passwordChanged: passwordHash !== undefined });
  return updated;
}
