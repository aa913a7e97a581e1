import { html, type Markup } from '../../resources/sales-page/index.ts';
import { csrfField, message } from '../web/page.ts';

/** The forms of signing in, up and resetting: markup only; account-routes.ts decides what to show. */

export interface FormState {
  csrf: string;
  error?: string;
  notice?: string;
  email?: string;
  name?: string;
  next?: string;
}

function nextField(next: string | undefined): Markup {
  return next ? html`<input type="hidden" name="next" value="${next}">` : html``;
}

export function signInForm(s: FormState, signUpOpen: boolean): Markup {
  const signUp = signUpOpen
    ? html`<p>New here? <a href="/studio/sign-up${s.next ? `?next=${encodeURIComponent(s.next)}` : ''}">Create an account</a>.</p>`
    : html``;
  return html`<h1>Sign in</h1>
${message('notice', s.notice)}${message('error', s.error)}
<form class="card" method="post" action="/studio/sign-in">
${csrfField(s.csrf)}${nextField(s.next)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${s.email ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button type="submit">Sign in</button></div>
</form>
<p><a href="/studio/forgot">Forgot your password?</a></p>
${signUp}`;
}

export function signUpForm(s: FormState, passwordMin: number): Markup {
  return html`<h1>Create your creator account</h1>
${message('error', s.error)}
<form class="card" method="post" action="/studio/sign-up">
${csrfField(s.csrf)}${nextField(s.next)}
<label for="name">Your name as buyers see it</label>
<input id="name" name="name" type="text" autocomplete="name" required maxlength="80" value="${s.name ?? ''}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${s.email ?? ''}">
<label for="password">Password (at least ${passwordMin} characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${passwordMin}">
<div class="actions"><button type="submit">Create account</button></div>
</form>
<p>Have an account? <a href="/studio/sign-in">Sign in</a>.</p>`;
}

export function forgotForm(s: FormState): Markup {
  return html`<h1>Reset your password</h1>
${message('notice', s.notice)}${message('error', s.error)}
<form class="card" method="post" action="/studio/forgot">
${csrfField(s.csrf)}
<label for="email">The email of your account</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${s.email ?? ''}">
<div class="actions"><button type="submit">Send me a link</button></div>
</form>
<p><a href="/studio/sign-in">Back to sign in</a></p>`;
}

export function resetForm(s: FormState & { token: string }, passwordMin: number): Markup {
  return html`<h1>Choose a new password</h1>
${message('error', s.error)}
<form class="card" method="post" action="/studio/reset">
${csrfField(s.csrf)}<input type="hidden" name="token" value="${s.token}">
<label for="password">New password (at least ${passwordMin} characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${passwordMin}">
<div class="actions"><button type="submit">Set password and sign in</button></div>
</form>`;
}

export const deadLink = html`<h1>This link no longer works</h1>
<p class="error" role="alert">The link has expired or was already used. Ask for a new one.</p>
<p><a href="/studio/forgot">Send me a new link</a></p>`;

export function accountPage(
  s: { csrf: string; email: string; name: string; notice?: string; error?: string },
  passwordMin: number,
): Markup {
  return html`<h1>Account</h1>
${message('notice', s.notice)}${message('error', s.error)}
<section class="card"><p><strong>${s.name}</strong><br><span class="muted">${s.email}</span></p></section>
<h2>Change password</h2>
<form class="card" method="post" action="/studio/account/password">
${csrfField(s.csrf)}
<label for="current">Current password</label>
<input id="current" name="current" type="password" autocomplete="current-password" required>
<label for="password">New password (at least ${passwordMin} characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${passwordMin}">
<div class="actions"><button type="submit">Change password</button></div>
<p class="muted">Every other browser signed in to this account is signed out.</p>
</form>
<h2>Sign out everywhere</h2>
<form class="card" method="post" action="/studio/sign-out-everywhere">
${csrfField(s.csrf)}
<p>Ends every session of this account, on every device, this one included. API keys and connected assistants keep working: revoke them on their pages.</p>
<div class="actions"><button class="danger" type="submit">Sign out everywhere</button></div>
</form>`;
}
