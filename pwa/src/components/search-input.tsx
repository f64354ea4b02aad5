import { SearchIcon } from './icons.tsx';

export interface SearchInputProps {
  /** The accessible name, e.g. 'Search users'; the placeholder is what the screen shows. */
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}

/** A dashboard list's search box, with its magnifier. */
export function SearchInput({ label, placeholder, value, onChange }: SearchInputProps) {
  return (
    <label className="input w-full sm:flex-1">
      <span className="sr-only">{label}</span>
      <SearchIcon className="h-4 w-4 opacity-60" />
      <input type="search" placeholder={placeholder} value={value} onChange={(event) => onChange(event.target.value)} />
    </label>
  );
}
