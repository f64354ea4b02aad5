import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ModalDialog } from './modal-dialog.tsx';

afterEach(cleanup);

const pressEscape = (dialog: HTMLElement) => fireEvent(dialog, new Event('cancel', { cancelable: true }));

describe('ModalDialog', () => {
  it('opens as a modal dialog named by its title, and closes by the close button or Escape', () => {
    const onClose = vi.fn();
    render(
      <ModalDialog title="Update Stock Status" onClose={onClose}>
        <p>Body</p>
      </ModalDialog>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Update Stock Status' }) as HTMLDialogElement;
    expect(dialog.open).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    pressEscape(dialog);
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('cannot be closed while busy', () => {
    const onClose = vi.fn();
    render(
      <ModalDialog title="Edit Service" onClose={onClose} busy>
        <p>Saving</p>
      </ModalDialog>,
    );
    expect((screen.getByRole('button', { name: 'Close' }) as HTMLButtonElement).disabled).toBe(true);
    pressEscape(screen.getByRole('dialog'));
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes on a click beside the box when asked to, with no extra control for keyboards or screen readers', () => {
    const onClose = vi.fn();
    const { container } = render(
      <ModalDialog title="Add to Home Screen" onClose={onClose} closeOnBackdrop>
        <p>Steps</p>
      </ModalDialog>,
    );
    const backdrop = container.querySelector<HTMLButtonElement>('.modal-backdrop button');
    expect(backdrop?.getAttribute('aria-hidden')).toBe('true');
    expect(backdrop?.tabIndex).toBe(-1);
    expect(screen.getAllByRole('button').map((button) => button.getAttribute('aria-label') ?? button.textContent)).toEqual(['Close']);
    fireEvent.click(backdrop!);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('leaves the dialog closed once unmounted', () => {
    const { unmount } = render(
      <ModalDialog title="History" onClose={() => undefined}>
        <p>Entries</p>
      </ModalDialog>,
    );
    const dialog = screen.getByRole('dialog') as HTMLDialogElement;
    unmount();
    expect(dialog.open).toBe(false);
  });
});
