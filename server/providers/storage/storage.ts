/**
 * File storage behind the /content/ area (spec 3 image locations: users/, characters/,
 * predefined-characters/, voice/, {group or character id}/...). Keys are relative paths
 * such as "characters/abc.jpg"; they never contain "..".
 */
export interface FileStorage {
  /** Writes bytes at key, replacing any file there. */
  put(key: string, bytes: Buffer): Promise<void>;
  /** Copies an existing key to another. @throws if `from` does not exist. */
  copy(from: string, to: string): Promise<void>;
  /** Removes the key; a missing file is not an error. */
  remove(key: string): Promise<void>;
  /** Removes every key under the folder `prefix` (e.g. a chat's pictures); missing is not an error. */
  removeFolder(prefix: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** The file's bytes, or undefined when it does not exist. */
  read(key: string): Promise<Buffer | undefined>;
}
