import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { hasUnsavedInput, useUnsavedChanges } from './update-prompt.tsx';

afterEach(cleanup);

function Form({ dirty }: { dirty?: boolean }) {
  useUnsavedChanges(dirty ?? false);
  return (
    <form>
      <label>
        Title <input name="title" />
      </label>
    </form>
  );
}

describe('hasUnsavedInput (the update prompt asks before reloading over it)', () => {
  it('is false on a page whose forms are empty, and true once something is typed', () => {
    const { container } = render(<Form />);
    expect(hasUnsavedInput(container)).toBe(false);
    container.querySelector('input')!.value = 'Half-written service';
    expect(hasUnsavedInput(container)).toBe(true);
  });

  it('ignores search boxes and counts a form that declares itself dirty', () => {
    const { container, rerender } = render(
      <form role="search">
        <input type="search" defaultValue="wise" />
        <input defaultValue="vps" />
      </form>,
    );
    expect(hasUnsavedInput(container)).toBe(false);
    rerender(<Form dirty />);
    expect(hasUnsavedInput(container)).toBe(true);
    rerender(<Form dirty={false} />);
    expect(hasUnsavedInput(container)).toBe(false);
  });
});
