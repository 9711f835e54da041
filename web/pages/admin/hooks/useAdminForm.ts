// The state of one admin edit form (plans, presets, a user's limits, "Add user") and the props binding each field to it.
import { useState } from "react";

/** The keys of `T` whose values are of type `V`. */
type KeysOf<T, V> = { [K in keyof T]-?: T[K] extends V ? K : never }[keyof T];

/** The value and change handler of one `AdminField`. */
interface Bound<V> {
  value: V;
  onChange: (value: V) => void;
}

/** The state of one admin edit form and the props that bind each `AdminField` to it. */
export interface AdminForm<T> {
  values: T;
  set: <K extends keyof T>(key: K, value: T[K]) => void;
  /** A text, textarea or select field of a string value. */
  text: (key: KeysOf<T, string>) => Bound<string>;
  /** A number field of a count (typed text that is not a whole number ≥ 0 stores 0). */
  count: (key: KeysOf<T, number>) => Bound<string>;
  /** A checkbox of a boolean value. */
  flag: (key: KeysOf<T, boolean>) => Bound<boolean>;
  /** Back to the values the form started from. */
  reset: () => void;
}

/** One admin form (plans, presets, a user's limits, "Add user"), starting from `initial` (read on the first render). */
export function useAdminForm<T extends object>(initial: T): AdminForm<T> {
  const [start] = useState<T>(initial);
  const [values, setValues] = useState<T>(start);
  const set = <K extends keyof T>(key: K, value: T[K]) => setValues((v) => ({ ...v, [key]: value }));
  const bind = <V>(key: keyof T, show: (value: T[keyof T]) => V, store: (value: V) => unknown) => ({
    value: show(values[key]),
    onChange: (value: V) => set(key, store(value) as T[keyof T]),
  });
  return {
    values,
    set,
    text: (key) =>
      bind(
        key,
        (value) => value as string,
        (value: string) => value,
      ),
    count: (key) => bind(key, String, (value: string) => Math.max(0, Number.parseInt(value, 10) || 0)),
    flag: (key) =>
      bind(
        key,
        (value) => value as boolean,
        (value: boolean) => value,
      ),
    reset: () => setValues(start),
  };
}
