import { deliveryKindLabels, type DeliveryKind } from '../../../../edge-api/src/contract/deliveries.ts';
import type { ServiceStock } from '../../../../edge-api/src/contract/service-stocks.ts';

const kindName = (kind: string) => (deliveryKindLabels[kind as DeliveryKind] ?? kind).split(' (')[0]!.toLowerCase();

/**
 * What happens to stock when a service is changed to deliver another kind (issue 33, item 1; decision
 * 197): a claim draws only items of the service's kind (decision 072), so available items of the old kind
 * stay on the shelf, never drawn, until withdrawn; a Wise account service no longer draws on the Wise
 * pool. Null when the kind is unchanged or no stock is concerned.
 */
export function deliveryKindChangeNote(from: string, to: string, available: readonly Pick<ServiceStock, 'kind'>[], category: string): string | null {
  if (from === to) return null;
  const stranded = available.filter((item) => item.kind === from).length;
  if (stranded > 0) {
    const items = stranded === 1 ? '1 available stock item delivers' : `${stranded} available stock items deliver`;
    return `${items} ${kindName(from)}. Once this service delivers ${kindName(to)}, ${stranded === 1 ? 'it stays' : 'they stay'} on the shelf and ${stranded === 1 ? 'is' : 'are'} never delivered: withdraw ${stranded === 1 ? 'it' : 'them'} in Stock, or keep delivering ${kindName(from)}.`;
  }
  if (from === 'account' && category === 'wise')
    return `This service draws accounts from the Wise stock. Once it delivers ${kindName(to)}, its orders no longer draw on the Wise stock.`;
  return null;
}
