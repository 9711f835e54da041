// Where a model's reply ends (the stop strings) and how its raw text is cleaned.

/**
 * Strings after which the model has started to write the user's turn: the name the user goes by,
 * the profile's name when that differs (`pname`), the other members' names.
 */
export function stopStrings(userName: string, otherMembers: string[] = [], profileName = userName): string[] {
  // Endpoints take at most 4 stop strings: the names come first; cleanReply applies them all.
  const names = profileName === userName ? [userName] : [userName, profileName];
  return [...names, ...otherMembers].map((name) => `\n${name}:`).concat("\nUser:", "\n### User");
}

/**
 * Cleans a raw model reply: cuts anything written as the user, drops a leading "Name:" the
 * model may echo, trims whitespace.
 */
export function cleanReply(
  raw: string,
  charName: string,
  userName: string,
  otherMembers: string[] = [],
): string {
  let text = raw;
  for (const stop of stopStrings(userName, otherMembers)) {
    const at = text.indexOf(stop);
    if (at >= 0) text = text.slice(0, at);
  }
  text = text.trim();
  const prefix = `${charName}:`;
  if (text.startsWith(prefix)) text = text.slice(prefix.length).trim();
  return text;
}
