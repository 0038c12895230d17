/**
 * The `ai` package's framework-neutral chat (`AbstractChat`) with the smallest state a page needs: the messages
 * and status, and one listener told of every change. The page renders with it; the sample's Node client drives
 * it the same way.
 */
import { AbstractChat, ChatInit, ChatState, ChatStatus, UIMessage } from 'ai';

/** A chat state that calls `onChange` after every change. */
class ObservedChatState<M extends UIMessage> implements ChatState<M> {
  private currentStatus: ChatStatus = 'ready';
  private currentError: Error | undefined;
  messagesList: M[] = [];

  constructor(
    private readonly onChange: () => void,
    initial: readonly M[] = [],
  ) {
    this.messagesList = [...initial];
  }

  get status(): ChatStatus {
    return this.currentStatus;
  }
  set status(status: ChatStatus) {
    this.currentStatus = status;
    this.onChange();
  }
  get error(): Error | undefined {
    return this.currentError;
  }
  set error(error: Error | undefined) {
    this.currentError = error;
    this.onChange();
  }
  get messages(): M[] {
    return this.messagesList;
  }
  set messages(messages: M[]) {
    this.messagesList = [...messages];
    this.onChange();
  }
  pushMessage = (message: M): void => {
    this.messages = [...this.messagesList, message];
  };
  popMessage = (): void => {
    this.messages = this.messagesList.slice(0, -1);
  };
  replaceMessage = (index: number, message: M): void => {
    const messages = [...this.messagesList];
    messages[index] = message;
    this.messages = messages;
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/**
 * A chat whose `onChange` is called after every change of its messages, status or error. `init.id` and
 * `init.messages` restore a chat (a reloaded page), so `resumeStream()` can follow its run again.
 */
export class PageChat<M extends UIMessage = UIMessage> extends AbstractChat<M> {
  constructor(init: ChatInit<M>, onChange: () => void = () => undefined) {
    const { messages, ...rest } = init;
    super({ ...rest, state: new ObservedChatState<M>(onChange, messages) });
  }

  /** The messages now. */
  get currentMessages(): readonly M[] {
    return this.messages;
  }
}
