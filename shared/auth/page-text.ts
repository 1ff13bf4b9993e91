// What the sign-in, second-factor and sign-out pages say, in each language they speak, and how a
// request picks one: the first of OpenID Connect's ui_locales the pages speak, else the browser's
// Accept-Language by preference (RFC 9110 section 12.5.4), else the tenant's own language.
import { LOCALES, type Locale } from '../config';

export interface PageText {
  signInTitle: (school: string) => string;
  signInHeading: (school: string) => string;
  asks: string;
  username: string;
  password: string;
  signIn: string;
  missing: string;
  failed: string;
  locked: (minutes: number) => string;
  codeHeading: string;
  codeIntro: string;
  code: string;
  next: string;
  wrongCode: string;
  noSecondFactor: string;
  signOutTitle: (school: string) => string;
  signOutQuestion: string;
  signOut: string;
  signedOutTitle: string;
  signedOut: (school: string) => string;
}

const en: PageText = {
  signInTitle: (school) => `Sign in – ${school}`,
  signInHeading: (school) => `Sign in to ${school}`,
  asks: 'asks you to sign in with your school account.',
  username: 'Username or e-mail address',
  password: 'Password',
  signIn: 'Sign in',
  missing: 'Enter your username and your password.',
  failed: 'The username or password is not right, or the account cannot sign in. Check them and try again.',
  locked: (minutes) => `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  codeHeading: 'Enter your code',
  codeIntro: 'Your account asks for a second step: the 6-digit code your authenticator app shows now.',
  code: 'Code',
  next: 'Continue',
  wrongCode: 'That code is not right, or was already used. Wait for the next code and try again.',
  noSecondFactor:
    'Accounts with admin rights need an authenticator app to sign in, and yours has none yet. Ask whoever looks after the school system to set one up.',
  signOutTitle: (school) => `Sign out – ${school}`,
  signOutQuestion: 'Do you want to sign out? You will need your password to sign in again.',
  signOut: 'Sign out',
  signedOutTitle: 'You are signed out',
  signedOut: (school) => `You are signed out of ${school}. You can close this page.`,
};

const pt: PageText = {
  signInTitle: (school) => `Iniciar sessão – ${school}`,
  signInHeading: (school) => `Iniciar sessão em ${school}`,
  asks: 'pede-lhe que inicie sessão com a sua conta da escola.',
  username: 'Nome de utilizador ou endereço de e-mail',
  password: 'Palavra-passe',
  signIn: 'Iniciar sessão',
  missing: 'Introduza o seu nome de utilizador e a sua palavra-passe.',
  failed:
    'O nome de utilizador ou a palavra-passe não estão certos, ou a conta não pode iniciar sessão. Verifique-os e tente de novo.',
  locked: (minutes) =>
    `Demasiadas tentativas falhadas. Tente de novo daqui a ${minutes} minuto${minutes === 1 ? '' : 's'}.`,
  codeHeading: 'Introduza o seu código',
  codeIntro:
    'A sua conta pede um segundo passo: o código de 6 dígitos que a sua aplicação autenticadora mostra agora.',
  code: 'Código',
  next: 'Continuar',
  wrongCode: 'Esse código não está certo, ou já foi usado. Aguarde pelo código seguinte e tente de novo.',
  noSecondFactor:
    'As contas com direitos de administração precisam de uma aplicação autenticadora para iniciar sessão, e a sua ainda não tem. Peça a quem gere o sistema da escola que a configure.',
  signOutTitle: (school) => `Terminar sessão – ${school}`,
  signOutQuestion: 'Quer terminar a sessão? Vai precisar da sua palavra-passe para voltar a entrar.',
  signOut: 'Terminar sessão',
  signedOutTitle: 'Sessão terminada',
  signedOut: (school) => `Terminou a sessão em ${school}. Pode fechar esta página.`,
};

export const pageText: Record<Locale, PageText> = { en, pt };

/** The language a tag names, if the pages speak it: `pt-PT`, `pt-BR` and `pt` are all Portuguese. */
const spoken = (tag: string): Locale | undefined => {
  const primary = tag.trim().split('-')[0]?.toLowerCase();
  return LOCALES.find((locale) => locale === primary);
};

/** Accept-Language's tags by descending weight (q=0 is a refusal); ties keep the header's order. */
function byPreference(acceptLanguage: string): string[] {
  return acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag !== '' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}

export function chooseLocale(
  uiLocales: string | undefined,
  acceptLanguage: string | undefined,
  fallback: Locale,
): Locale {
  for (const tag of (uiLocales ?? '').split(' ')) {
    const locale = spoken(tag);
    if (locale) return locale;
  }
  for (const tag of byPreference(acceptLanguage ?? '')) {
    const locale = spoken(tag);
    if (locale) return locale;
  }
  return fallback;
}
