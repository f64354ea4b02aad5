import { NotificationBell, type AttentionItem } from '../../components/notification-bell.tsx';
import { useDeviceTickets } from './support-data.ts';

/**
 * A customer's bell (decision 141): like staff's for customer messages, it counts the tickets staff
 * answered that the customer has not read (unreadByCustomer, synced to the device) and opens the ticket.
 */
export function CustomerBell() {
  const tickets = useDeviceTickets();
  const answered = tickets?.filter((ticket) => ticket.unreadByCustomer > 0);
  const items: AttentionItem[] | undefined =
    answered === undefined
      ? undefined
      : [
          {
            id: 'support-replies',
            count: answered.length,
            text: answered.length === 1 ? `Support replied: ${answered[0]!.subject}` : 'Support replied to your tickets',
            to: answered.length === 1 ? `/support#ticket-${answered[0]!.id}` : '/support',
          },
        ];
  return <NotificationBell items={items} />;
}
