// How messages and the API description put a word in a sentence.

/** A word after its indefinite article: "a class", "an attendance record". */
export const withArticle = (word: string) => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;

/** A sentence's first word, capitalised. */
export const capitalised = (words: string) => `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
