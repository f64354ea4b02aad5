import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfirmProvider, useChoose, useConfirm } from './confirm-dialog.tsx';

afterEach(cleanup);

function Asker() {
  const confirm = useConfirm();
  const [answer, setAnswer] = useState('none');
  return (
    <>
      <button
        type="button"
        onClick={async () =>
          setAnswer(String(await confirm({ title: 'Are you sure?', text: "You won't be able to revert this!", confirmLabel: 'Yes, delete it!', danger: true })))
        }
      >
        Delete
      </button>
      <output>{answer}</output>
    </>
  );
}

const renderAsker = () =>
  render(
    <ConfirmProvider>
      <Asker />
    </ConfirmProvider>,
  );

describe('useConfirm', () => {
  it('asks in a labelled modal dialog and resolves true on the confirm button', async () => {
    renderAsker();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Are you sure?' });
    expect((dialog as HTMLDialogElement).open).toBe(true);
    expect(dialog.getAttribute('aria-describedby')).toBe(screen.getByText("You won't be able to revert this!").id);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Yes, delete it!' })));
    expect(screen.getByRole('status').textContent).toBe('true');
    expect((dialog as HTMLDialogElement).open).toBe(false);
  });

  it('names what the action is about, and reads it with the question', async () => {
    function NamedAsker() {
      const confirm = useConfirm();
      return (
        <button
          type="button"
          onClick={() =>
            void confirm({ title: 'Are you sure?', subject: ['Sara Khan', 'sara@demo.test'], text: 'This action cannot be undone!', danger: true })
          }
        >
          Delete
        </button>
      );
    }
    render(
      <ConfirmProvider>
        <NamedAsker />
      </ConfirmProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Are you sure?' });
    const name = within(dialog).getByText('Sara Khan');
    expect(within(dialog).getByText('sara@demo.test')).toBeTruthy();
    const describedBy = dialog.getAttribute('aria-describedby')?.split(' ') ?? [];
    expect(describedBy).toEqual([name.parentElement!.id, within(dialog).getByText('This action cannot be undone!').id]);
  });

  it('resolves false on Cancel', async () => {
    renderAsker();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await screen.findByRole('dialog');
    await act(async () => fireEvent.click(screen.getByText('Cancel', { selector: 'button' })));
    expect(screen.getByRole('status').textContent).toBe('false');
  });

  it('offers only its two buttons to keyboards and screen readers (the click-beside area is pointer only)', async () => {
    renderAsker();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Cancel', 'Yes, delete it!']);
    const backdrop = dialog.querySelector<HTMLButtonElement>('.modal-backdrop button');
    expect(backdrop?.getAttribute('aria-hidden')).toBe('true');
    expect(backdrop?.tabIndex).toBe(-1);
  });

  it('resolves false when the dialog is dismissed (Escape closes a modal dialog)', async () => {
    renderAsker();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = (await screen.findByRole('dialog')) as HTMLDialogElement;
    await act(async () => dialog.close());
    expect(screen.getByRole('status').textContent).toBe('false');
  });

  it('starts on Cancel for a destructive action', async () => {
    renderAsker();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await screen.findByRole('dialog');
    expect(document.activeElement?.textContent).toBe('Cancel');
  });
});

describe('useChoose', () => {
  function Chooser() {
    const choose = useChoose();
    const [answer, setAnswer] = useState('none');
    return (
      <>
        <button
          type="button"
          onClick={async () =>
            setAnswer(
              await choose({
                title: 'Send or discard 2 changes?',
                alternativeLabel: 'Send 2 changes Now',
                confirmLabel: 'Discard 2 changes',
                cancelLabel: 'Stay',
                danger: true,
              }),
            )
          }
        >
          Sign out
        </button>
        <output>{answer}</output>
      </>
    );
  }

  it('offers a third answer beside confirm and cancel, and focus starts on cancel for a destructive one', async () => {
    render(
      <ConfirmProvider>
        <Chooser />
      </ConfirmProvider>,
    );
    for (const [button, answer] of [
      ['Send 2 changes Now', 'alternative'],
      ['Discard 2 changes', 'confirm'],
      ['Stay', 'cancel'],
    ] as const) {
      fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
      const dialog = await screen.findByRole('dialog', { name: 'Send or discard 2 changes?' });
      expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Stay' }));
      await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: button })));
      expect(screen.getByRole('status').textContent).toBe(answer);
    }
  });
});
