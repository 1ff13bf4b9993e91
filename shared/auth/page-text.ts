// What the sign-in, second-factor and sign-out pages and their error pages say, in each language they speak, and how a
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
  errors: ErrorText;
}

/** What the error pages of sign-in and sign-out say: each page's heading, and what went wrong. */
export interface ErrorText {
  cannotStart: string;
  /** Follows each reason a sign-in link does not work. */
  notSentAnywhere: string;
  unknownApp: string;
  noRedirectUri: string;
  unregisteredRedirectUri: string;
  formRefused: string;
  notFromThisPage: string;
  notASignInForm: string;
  fieldTwice: (field: string) => string;
  signInEnded: string;
  signInEndedWhy: string;
  cannotSignOut: string;
  /** Follows each reason a sign-out link does not work. */
  goBackOrClose: string;
  givenTwice: (name: string) => string;
  hintForAnotherApp: string;
  unregisteredLogoutUri: string;
  foreignIdToken: string;
  notASignOutForm: string;
  /** Any other refusal of what the browser sent (too large, not a form). */
  badRequest: string;
  badRequestWhy: string;
  failed: string;
  failedWhy: (requestId: string) => string;
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
  errors: {
    cannotStart: 'This sign-in link does not work',
    notSentAnywhere: 'You have not been sent anywhere. Go back to the app, or tell whoever looks after it.',
    unknownApp: 'The app that sent you here is not one this school lets people sign in to.',
    noRedirectUri: 'The app that sent you here did not say where to send you back.',
    unregisteredRedirectUri:
      'The app that sent you here asked to send you back to an address it has not registered.',
    formRefused: 'This form cannot be sent',
    notFromThisPage:
      'The sign-in form did not come from this sign-in page, or your browser did not keep its cookie. ' +
      'Go back to the app and start signing in again.',
    notASignInForm: 'Send the sign-in form from the sign-in page.',
    fieldTwice: (field) => `The form holds the field ${field} twice.`,
    signInEnded: 'This sign-in has ended',
    signInEndedWhy:
      'The sign-in page has expired or was already used. Go back to the app and start signing in again.',
    cannotSignOut: 'This sign-out link does not work',
    goBackOrClose: 'Go back to the app, or close this page.',
    givenTwice: (name) => `The request gives ${name} more than once.`,
    hintForAnotherApp: 'The app named is not the one its ID token was issued to.',
    unregisteredLogoutUri: 'The app asked to send you to an address it has not registered.',
    foreignIdToken: 'The app sent an ID token this school did not issue.',
    notASignOutForm: 'Send the sign-out request as a form.',
    badRequest: 'This request cannot be sent',
    badRequestWhy: 'What your browser sent is too large or not a form. Go back to the app and start again.',
    failed: 'Something went wrong',
    failedWhy: (id) => `The request failed on our side. Quote request id ${id} when you report it.`,
  },
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
  errors: {
    cannotStart: 'Esta ligação para iniciar sessão não funciona',
    notSentAnywhere: 'Não foi enviado para lado nenhum. Volte à aplicação, ou avise quem a gere.',
    unknownApp: 'A aplicação que o trouxe aqui não é uma em que esta escola deixe iniciar sessão.',
    noRedirectUri: 'A aplicação que o trouxe aqui não disse para onde o enviar de volta.',
    unregisteredRedirectUri:
      'A aplicação que o trouxe aqui pediu para o enviar de volta para um endereço que não registou.',
    formRefused: 'Este formulário não pode ser enviado',
    notFromThisPage:
      'O formulário não veio desta página de início de sessão, ou o seu navegador não guardou o cookie. ' +
      'Volte à aplicação e comece de novo a iniciar sessão.',
    notASignInForm: 'Envie o formulário a partir da página de início de sessão.',
    fieldTwice: (field) => `O formulário tem o campo ${field} duas vezes.`,
    signInEnded: 'Este início de sessão terminou',
    signInEndedWhy:
      'A página de início de sessão expirou ou já foi usada. Volte à aplicação e comece de novo a iniciar sessão.',
    cannotSignOut: 'Esta ligação para terminar sessão não funciona',
    goBackOrClose: 'Volte à aplicação, ou feche esta página.',
    givenTwice: (name) => `O pedido indica ${name} mais de uma vez.`,
    hintForAnotherApp: 'A aplicação indicada não é aquela para a qual o token de ID foi emitido.',
    unregisteredLogoutUri: 'A aplicação pediu para o enviar para um endereço que não registou.',
    foreignIdToken: 'A aplicação enviou um token de ID que esta escola não emitiu.',
    notASignOutForm: 'Envie o pedido para terminar sessão como formulário.',
    badRequest: 'Este pedido não pode ser enviado',
    badRequestWhy:
      'O que o seu navegador enviou é demasiado grande ou não é um formulário. Volte à aplicação e comece de novo.',
    failed: 'Algo correu mal',
    failedWhy: (id) =>
      `O pedido falhou do nosso lado. Indique o identificador de pedido ${id} quando o comunicar.`,
  },
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
